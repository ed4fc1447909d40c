// The package ships types for its entry only; its glue module exports the same class.
declare module "@fedimint/fedimint-client-wasm-bundler/fedimint_client_wasm_bg.js" {
  export { WasmClient } from "@fedimint/fedimint-client-wasm-bundler";
  export function __wbg_set_wasm(exports: WebAssembly.Exports): void;
}
