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

export const restore = (
  cashu: Cashu,
  mint: string,
  onProgress: Parameters<EcashAdapter["restore"]>[1],
  accountedSats?: bigint,
) =>
  cashu.withMint(mint, async (s) => {
    if (s.state.pending) await settled(cashu, s);
    const w = await cashu.walletOf(s);
    const found: StoredProof[] = [];
    try {
      const keysets = w.keyChain.getKeysets().filter((k) => k.unit === "sat" && k.hasHexId);
      for (const [i, k] of keysets.entries()) {
        onProgress?.({ complete: i, total: keysets.length });
        const { proofs, lastCounterWithSignature } = await w.batchRestore(100, 100, 0, k.id);
        if (lastCounterWithSignature !== undefined) {
          const next = lastCounterWithSignature + 1;
          if ((cashu.keysetCounters[k.id] ?? 0) < next) cashu.keysetCounters[k.id] = next;
        }
        found.push(...(await unspent(w, proofs.map(toStored))));
      }
      onProgress?.({ complete: keysets.length, total: keysets.length });
    } catch (e) {
      throw failure(e, UNREACHABLE);
    }
    const held = new Set(s.state.proofs.map((p) => p.secret));
    const fresh = found.filter((p) => !held.has(p.secret));
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
