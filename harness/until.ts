/** Waits until `check` holds, looking every `stepMs`; fails with `what` after `ms`. For tests against the world. */
export const until = async (
  what: string,
  check: () => boolean | Promise<boolean>,
  ms = 30_000,
  stepMs = 100,
): Promise<void> => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
};
