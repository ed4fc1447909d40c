/// <reference types="vite/client" />
declare const __APP_VERSION__: string;
/** A digest of the folds' code (scripts/fold-version.ts); undefined where no bundler defines it (tsx). */
declare const __FOLD_VERSION__: string | undefined;

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
  readonly VITE_PRIMAL_API?: string;
  readonly VITE_SERVICES?: string;
}

declare module "virtual:welcome-screens" {
  const screens: import("./welcome/first-paint").WelcomeScreens;
  export default screens;
}
