/**
 * What the seed holds at a mint (NUT-09 restore over the NUT-13 counters of each keyset), for a wallet that
 * lost its state: the unspent proofs found are the wallet's again, and the counters move past them.
 */
import { ecashMoved } from "../moved";
import type { EcashAdapter } from "../port";
import { failure, toStored, UNREACHABLE, unspent } from "./proofs";
import { addProofs, type Cashu, record } from "./session";
import { settled } from "./settle";
import { type StoredProof, sumProofs } from "./state";

/** Blinded messages per restore request: many at once (NUT-09 takes a list), within what mints accept. */
export const RESTORE_BATCH = 200;
/** Keysets restored at once: a mint answers each keyset's requests on its own. */
const PARALLEL_KEYSETS = 3;

/**
 * What the mint signed for one keyset's counters, a batch of them per request, until a whole batch comes
 * back empty (a gap wider than NUT-13's 100): the proofs found, and the counter after the last one signed.
 */
const scanKeyset = async (
  w: Awaited<ReturnType<Cashu["walletOf"]>>,
  keysetId: string,
  batch: (n: number) => void,
): Promise<{ proofs: StoredProof[]; next: number }> => {
  const proofs: StoredProof[] = [];
  let next = 0;
  for (let start = 0; ; start += RESTORE_BATCH) {
    const r = await w.restore(start, RESTORE_BATCH, { keysetId });
    batch(RESTORE_BATCH);
    if (r.proofs.length === 0) return { proofs, next };
    proofs.push(...r.proofs.map(toStored));
    if (r.lastCounterWithSignature !== undefined) next = Math.max(next, r.lastCounterWithSignature + 1);
  }
};

export const restore = (
  cashu: Cashu,
  mint: string,
  onProgress: Parameters<EcashAdapter["restore"]>[1],
  accountedSats?: bigint,
) =>
  cashu.withMint(mint, async (s) => {
    if (s.state.pending) await settled(cashu, s);
    const w = await cashu.walletOf(s);
    const found = new Map<string, StoredProof>();
    try {
      const keysets = w.keyChain.getKeysets().filter((k) => k.unit === "sat" && k.hasHexId);
      // Progress in counters asked: each keyset needs at least one batch; more come as proofs are found.
      let asked = 0;
      let total = keysets.length * RESTORE_BATCH;
      onProgress?.({ complete: 0, total });
      const queue = [...keysets];
      const worker = async () => {
        for (let k = queue.shift(); k; k = queue.shift()) {
          let mine = 0;
          const r = await scanKeyset(w, k.id, (n) => {
            asked += n;
            mine += n;
            if (mine > RESTORE_BATCH) total += n;
            onProgress?.({ complete: asked, total });
          });
          if (r.next > 0 && (cashu.keysetCounters[k.id] ?? 0) < r.next) cashu.keysetCounters[k.id] = r.next;
          // Each proof once, however its counters were asked.
          for (let i = 0; i < r.proofs.length; i += RESTORE_BATCH)
            for (const p of await unspent(w, r.proofs.slice(i, i + RESTORE_BATCH))) found.set(p.secret, p);
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL_KEYSETS, keysets.length) }, worker));
      onProgress?.({ complete: total, total });
    } catch (e) {
      throw failure(e, UNREACHABLE);
    }
    const held = new Set(s.state.proofs.map((p) => p.secret));
    const fresh = [...found.values()].filter((p) => !held.has(p.secret));
    addProofs(s, fresh);
    const amountSats = sumProofs(fresh);
    // The log counts what it already knows of (another device's events, brought back from the storage
    // server, count proofs this device had not held): only what the log lacks is recorded.
    const holding = sumProofs(s.state.proofs);
    const unrecorded =
      accountedSats === undefined ? amountSats : holding > accountedSats ? holding - accountedSats : 0n;
    const events =
      unrecorded > 0n
        ? record(s, [ecashMoved("ecash.received", s.url, cashu.uuid(), unrecorded, 0n, "restore")])
        : [];
    await cashu.persist(s);
    return { amountSats, events };
  });
