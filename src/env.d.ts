/// <reference types="vite/client" />
declare const __APP_VERSION__: string;

interface ImportMetaEnv {
  readonly VITE_NETWORK?: string;
  readonly VITE_ESPLORA?: string;
}
