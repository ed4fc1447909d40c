/**
 * A trained scorer from a server (the `scorer` setting, as Mutiny's scorer service handed one out): what
 * a node that probes the network has learnt of its channels' liquidity, so a new wallet's first payments
 * start from that knowledge instead of from nothing. The answer is bounded like every server's, and read
 * with LDK's own `ProbabilisticScorer` reader before the node is built; anything wrong with it (the server
 * silent, too large an answer, bytes LDK cannot read) leaves the wallet on its own stored or new scorer.
 */
import { boundedFetch, type FetchFn, type RequestLimits } from "../http/bounded";
import type { Log } from "./chain";

/** A mainnet scorer was a few MB (Mutiny's, 2024); room for growth, not for abuse. */
export const SCORER_LIMITS: RequestLimits = { timeoutMs: 20_000, maxBytes: 30_000_000 };

/** The scorer's bytes from `url`, or null when none is set or the server gave nothing usable (logged). */
export const fetchScorer = async (url: string | null | undefined, fetchFn: FetchFn, log: Log) => {
  if (!url) return null;
  try {
    const r = await boundedFetch(fetchFn, SCORER_LIMITS)(url);
    if (!r.ok) throw new Error(`the server answered ${r.status}`);
    const bytes = new Uint8Array(await r.arrayBuffer());
    if (bytes.length === 0) throw new Error("the server answered nothing");
    return bytes;
  } catch (e) {
    log("warn", `scorer: ${e instanceof Error ? e.message : String(e)}; the wallet's own scorer is used`);
    return null;
  }
};
