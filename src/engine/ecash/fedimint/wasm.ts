/**
 * Fedimint's client (the Rust `fedimint-client` compiled to wasm, `@fedimint/fedimint-client-wasm-bundler`)
 * instantiated by hand: the package's entry imports the `.wasm` file as an ES module, which neither Vite
 * nor Node does without a plugin, so the platform hands its glue module and the wasm bytes (the browser
 * worker by a `?url` import, Node tests from the file) and this wires them as wasm-bindgen expects.
 */
import type { WasmClient } from "@fedimint/fedimint-client-wasm-bundler";

/** The client's class: `join_federation`, `open`, `parse_invite_code`, and `rpc` on an instance. */
export type FedimintClientClass = typeof WasmClient;

/** wasm-bindgen's glue (`fedimint_client_wasm_bg.js`): the functions the wasm imports, and the class. */
export interface FedimintGlue {
  readonly WasmClient: FedimintClientClass;
  readonly __wbg_set_wasm: (exports: WebAssembly.Exports) => void;
}

/** Instantiates the client's wasm from `source` (a fetch answer streams; bytes compile). */
export const instantiateFedimint = async (
  glue: FedimintGlue,
  source: Response | Promise<Response> | BufferSource,
): Promise<FedimintClientClass> => {
  const imports = { "./fedimint_client_wasm_bg.js": glue as unknown as WebAssembly.ModuleImports };
  const { instance } =
    source instanceof Response || source instanceof Promise
      ? await WebAssembly.instantiateStreaming(source, imports)
      : await WebAssembly.instantiate(source, imports);
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return glue.WasmClient;
};
