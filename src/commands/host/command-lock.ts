import { Effect } from "effect";

/**
 * The command queue as a lock: one command holds it at a time, in the order they asked, so every handler
 * decides on the state the previous one left. A holder may hand it on while it waits on a server and ask
 * for it again after (see `HandlerContext.outside`): a slow server then delays only the command that needs it.
 */
export class CommandLock {
  private tail: Promise<void> = Promise.resolve();

  /** Resolves once every holder before has released; answers the release (call it once). */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const mine = new Promise<void>((r) => {
      release = r;
    });
    const before = this.tail;
    this.tail = before.then(() => mine);
    return before.then(() => release);
  }

  /** Runs `f` holding the lock. */
  async with<T>(f: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await f();
    } finally {
      release();
    }
  }

  /** Resolves once everything that asked so far has released. */
  idle(): Promise<void> {
    return this.with(async () => undefined);
  }
}

/** A command's hold on the lock, which `outside` hands on and takes back. */
export interface Hold {
  release: () => void;
  /** The command handed the lock on (`outside`) and has not taken it back yet. */
  away?: boolean;
}

/**
 * Runs `effect` with the command's turn handed on (`HandlerContext.outside`) and takes the turn back after.
 * Nested inside another `outside`, the queue is already handed on: handing it on again would take back a
 * turn that is not this command's, and the two would wait on each other for ever.
 */
export const outsideOf =
  (lock: CommandLock, hold: Hold) =>
  <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<A, E> =>
    Effect.suspend(() =>
      hold.away
        ? effect
        : Effect.acquireUseRelease(
            Effect.sync(() => {
              hold.away = true;
              hold.release();
            }),
            () => effect,
            () =>
              Effect.promise(async () => {
                hold.release = await lock.acquire();
                hold.away = false;
              }),
          ),
    );
