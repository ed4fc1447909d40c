/// <reference types="vite/client" />
declare const __APP_VERSION__: string;

interface ImportMetaEnv {
  readonly VITE_NETWORK?: string;
  readonly VITE_ESPLORA?: string;
  readonly VITE_PROXY?: string;
  readonly VITE_RGS?: string;
  readonly VITE_STORAGE?: string;
  readonly VITE_LSP?: string;
  readonly VITE_FEEDBACK?: string;
  readonly VITE_SUBSCRIPTIONS?: string;
  readonly VITE_HERMES?: string;
  readonly VITE_SCORER?: string;
}

declare module "virtual:welcome-screens" {
  const screens: import("./welcome/first-paint").WelcomeScreens;
  export default screens;
}
