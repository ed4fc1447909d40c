/**
 * Loading LDK in the browser: its wasm (12 MB) and its bindings (1.6 MB of script) side by side. The
 * bindings' own loader fetches and compiles the wasm only once they are imported, one after the other;
 * here the wasm is fetched and compiled (streaming, so the browser's compiled-code cache applies) from the
 * first moment, while the bindings' script loads, and the bindings then instantiate the compiled module.
 * The wasm is fetched once, and compiled from its own response (no copy), so its compiled code is cached.
 */
import type { FetchFn } from "../http/bounded";

type Bindings = { readonly initializeWasmWebFetch: (uri: string) => Promise<void> };

/**
 * Runs the bindings' loader (`initializeWasmWebFetch`, which calls `fetch(uri)` and then
 * `WebAssembly.instantiateStreaming` on it before it awaits anything) on the module compiled already: for
 * those first synchronous steps its fetch of `uri` gets an empty stand-in (the wasm is not fetched a second
 * time) and its instantiation takes `compiled`. ldk-wasm.test.ts runs this with the pinned bindings.
 */
export const initializeWith = (
  bindings: Bindings,
  uri: string,
  compiled: Promise<WebAssembly.Module>,
): Promise<void> => {
  const g = globalThis as { fetch: FetchFn };
  const ownFetch = g.fetch;
  const ownInstantiate = WebAssembly.instantiateStreaming;
  g.fetch = ((input: RequestInfo | URL, init?: RequestInit) =>
    input === uri ? Promise.resolve(new Response(null)) : ownFetch(input, init)) as FetchFn;
  WebAssembly.instantiateStreaming = async (_source, imports) => {
    const module = await compiled;
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };
  try {
    return bindings.initializeWasmWebFetch(uri);
  } finally {
    // Only for the loader's first synchronous steps: nothing else runs in between.
    g.fetch = ownFetch;
    WebAssembly.instantiateStreaming = ownInstantiate;
  }
};

/**
 * Imports LDK's bindings and instantiates its wasm, the app's own file at `wasmUrl` as `wasm` answers it
 * (the platform reads it from the app's origin), both under way at once.
 */
export const loadLdkStreaming = async (
  wasmUrl: string,
  wasm: Promise<Response>,
  importBindings: () => Promise<Bindings>,
): Promise<void> => {
  // The response itself, not a copy: the browser keeps the compiled code of a response it can tell
  // again (the service worker's cache), and a later start reads it instead of compiling.
  const compiled = WebAssembly.compileStreaming(wasm);
  compiled.catch(() => undefined);
  const bindings = await importBindings();
  await initializeWith(bindings, wasmUrl, compiled);
};
