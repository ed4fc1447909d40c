/** Runs `f` once the browser is idle (at most `timeoutMs` later); answers a function that cancels it. */
export const whenIdle = (f: () => void, timeoutMs = 5000): (() => void) => {
  if ("requestIdleCallback" in globalThis) {
    const id = requestIdleCallback(f, { timeout: timeoutMs });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(f, 0);
  return () => clearTimeout(id);
};
