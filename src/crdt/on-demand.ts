/** A load that starts when first awaited, or when `start` is called, and runs once. */
export type OnDemand = Promise<void> & { readonly start: () => Promise<void> };

/**
 * Wraps a load (Automerge's wasm, 1.15 MB gzip) so it starts only when something awaits it, or when told
 * to: a new wallet reaches home without it, and a returning one that holds owner edits starts it at once.
 */
export const onDemand = (load: () => Promise<void>): OnDemand => {
  let running: Promise<void> | null = null;
  const start = () => {
    running ??= load();
    return running;
  };
  return {
    start,
    // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose, awaited like the promise it stands for.
    then: (ok, fail) => start().then(ok, fail),
    catch: (fail) => start().catch(fail),
    finally: (done) => start().finally(done),
    [Symbol.toStringTag]: "Promise",
  } as OnDemand;
};
