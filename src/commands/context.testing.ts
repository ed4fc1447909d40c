/** A handler's context for tests that call handlers directly: no seed, no engine, no network. */
import { Effect } from "effect";
import type { States } from "../projections";
import type { HandlerContext } from "./context";

/** The same id, clock and device every time: what a test's events are stamped with. */
export const fixedStamp = { uuid: () => "id", now: () => 1_000, device: "d" };

/** The context of a handler on `states`; `over` gives what the test needs (an engine, a stamp, fetch). */
export const offlineContext = (states: States, over: Partial<HandlerContext> = {}): HandlerContext => ({
  states,
  network: "regtest",
  stamp: fixedStamp,
  keys: { mnemonic: () => Effect.die("no seed in this test") },
  onchain: null,
  lightning: null,
  outside: (effect) => effect,
  ...over,
});

/** What `e` fails with; the test fails when it succeeds. */
export const failure = async <E>(e: Effect.Effect<unknown, E>): Promise<E> => {
  const r = await Effect.runPromise(Effect.result(e));
  if (r._tag !== "Failure") throw new Error("expected a failure");
  return r.failure;
};
