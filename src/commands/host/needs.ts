import type { EngineName } from "../../engine/engine";
import type { Need } from "../context";

/** The engines a command waits for (the seed is no engine). */
export const enginesOf = (need: Need | readonly EngineName[] | undefined): readonly EngineName[] =>
  need === undefined || need === "seed" ? [] : typeof need === "string" ? [need] : need;

/** A command that reads the seed (itself, or an engine started from it): refused while the wallet is locked. */
export const needsSeed = (need: Need | readonly EngineName[] | undefined): boolean =>
  need === "seed" || enginesOf(need).some((e) => e === "onchain" || e === "nostr");
