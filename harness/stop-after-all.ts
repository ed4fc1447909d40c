import { afterAll } from "vitest";

/** Anything a test file starts and stops: a world, a service, a host, a node. */
interface Stoppable {
  stop(): unknown;
}

/**
 * After a test file's tests, stops what it started, in the order given (what uses the world before the world);
 * a part its set-up never reached is passed over.
 */
export const stopAfterAll = (parts: () => readonly (Stoppable | null | undefined)[]): void =>
  afterAll(async () => {
    for (const part of parts()) await part?.stop();
  });
