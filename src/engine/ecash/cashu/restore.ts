/**
 * What the seed holds at a mint (NUT-09 restore over the NUT-13 counters of each keyset), for a wallet that
 * lost its state: the unspent proofs found are the wallet's again, and the counters move past them.
 */
import type { Wallet } from "@cashu/cashu-ts";
import { ecashMoved } from "../moved";
import type { RestoreProgress } from "../port";
import { failure, UNREACHABLE } from "./proofs";
import { nut13Deriver } from "./derive";
import { askBatch, MintKeys, unspentProofs } from "./restore-batch";
import { addProofs, type Cashu, record } from "./session";
import { settled } from "./settle";
import { type StoredProof, sumProofs } from "./state";

/** Blinded messages per restore request: many at once (NUT-09 takes a list), within what mints accept. */
export const RESTORE_BATCH = 200;
/** Keysets restored at once: a mint answers each keyset's requests on its own. */
const PARALLEL_KEYSETS = 3;

/**
 * What the mint signed for one keyset's counters, a batch of them per request, until a whole batch comes
 * back empty (a gap wider than NUT-13's 100): the unspent proofs found, and the counter after the last one
 * signed. After a batch with signatures another is always needed: it is asked for as soon as the mint has
 * answered, while this one's states are asked and its unspent proofs unblinded.
 */
const scanKeyset = async (
  cashu: Cashu,
  w: Wallet,
  keysetId: string,
  batch: (asked: number, found: readonly StoredProof[]) => void,
): Promise<{ proofs: StoredProof[]; next: number }> => {
  const keys = new MintKeys(await w.keyChain.ensureKeysetKeys(keysetId));
  const derive = nut13Deriver(cashu.seed(), keysetId);
  const ask = (start: number) => {
    const asked = askBatch(w, derive, keys, start, RESTORE_BATCH);
    // Its failure is met where it is awaited, even when this batch's own work fails first.
    asked.catch(() => undefined);
    return asked;
  };
  const proofs: StoredProof[] = [];
  let next = 0;
  let coming = ask(0);
  for (let start = 0; ; start += RESTORE_BATCH) {
    const r = await coming;
    if (r.signed.length > 0) coming = ask(start + RESTORE_BATCH);
    const found = await unspentProofs(w, r.signed, keys);
    proofs.push(...found);
    batch(RESTORE_BATCH, found);
    if (r.signed.length === 0) return { proofs, next };
    if (r.lastCounter !== null) next = Math.max(next, r.lastCounter + 1);
  }
};

export const restore = (
  cashu: Cashu,
  mint: string,
  onProgress: ((p: RestoreProgress) => void) | undefined,
  accountedSats?: bigint,
) =>
  cashu.withMint(mint, async (s) => {
    if (s.state.pending) await settled(cashu, s);
    const w = await cashu.walletOf(s);
    // Each proof once, however its counters were asked.
    const found = new Map<string, StoredProof>();
    try {
      const keysets = w.keyChain.getKeysets().filter((k) => k.unit === "sat" && k.hasHexId);
      // Progress in counters asked: each keyset needs at least one batch; more come as proofs are found.
      let asked = 0;
      let total = keysets.length * RESTORE_BATCH;
      let begun = 0;
      const tell = () =>
        onProgress?.({
          complete: asked,
          total,
          keysets: keysets.length,
          keyset: Math.max(begun, Math.min(1, keysets.length)),
          proofs: found.size,
        });
      tell();
      const queue = [...keysets];
      const worker = async () => {
        for (let k = queue.shift(); k; k = queue.shift()) {
          begun++;
          let mine = 0;
          const r = await scanKeyset(cashu, w, k.id, (n, proofs) => {
            asked += n;
            mine += n;
            if (mine > RESTORE_BATCH) total += n;
            for (const p of proofs) found.set(p.secret, p);
            tell();
          });
          if (r.next > 0 && (cashu.keysetCounters[k.id] ?? 0) < r.next) cashu.keysetCounters[k.id] = r.next;
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL_KEYSETS, keysets.length) }, worker));
      total = asked;
      tell();
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
