/**
 * Asks the worker again and again while a screen waits for something (a payment to arrive), one question at a
 * time: the next is asked `ms` after the previous one answered, never on a fixed clock, so a server that is
 * slow to answer never gets a pile of questions (each would wait on it in turn).
 */
export const pollOneAtATime = (ask: () => Promise<unknown>, ms: number): (() => void) => {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = async () => {
    try {
      await ask();
    } catch {
      // Asked again at the next turn.
    }
    if (!stopped) timer = setTimeout(tick, ms);
  };
  timer = setTimeout(tick, ms);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
};
