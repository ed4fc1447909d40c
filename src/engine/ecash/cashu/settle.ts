/**
 * The money rule of the Cashu adapter: an operation that gives up proofs is written down before it goes out,
 * and one a crash (or a lost answer) left on its way is settled by asking the mint (NUT-07 proof states,
 * NUT-05 quote state), never by repeating it: a melt is never paid twice.
 */
import { ecashMoved } from "../moved";
import { CheckStateEnum, MeltQuoteState } from "@cashu/cashu-ts";
import type { NewEvent } from "../../../events/make";
import { failure, fromMint, restoreRanges, toLike, UNREACHABLE, unspent } from "./proofs";
import { addProofs, type Cashu, record, type Session } from "./session";
import { type PendingOp, sumProofs } from "./state";

/** Settles the operation a crash (or a lost answer) left on its way; answers its events. */
const settle = async (cashu: Cashu, s: Session): Promise<NewEvent[]> => {
  const p = s.state.pending;
  if (!p) return [];
  const w = await cashu.walletOf(s);
  const inputs = sumProofs(p.inputs);
  const events: NewEvent[] = [];
  if (p.kind === "melt") {
    const q = await w.checkMeltQuoteBolt11(p.quote ?? "");
    if (q.state === MeltQuoteState.PENDING) return [];
    if (q.state === MeltQuoteState.PAID) {
      const change = await restoreRanges(w, p.ranges);
      addProofs(s, change);
      const amount = BigInt(p.amount ?? "0");
      events.push(
        ecashMoved(
          "ecash.sent",
          s.url,
          p.op,
          amount,
          inputs - amount - sumProofs(change),
          p.via,
          p.paymentHash ?? null,
        ),
      );
    } else {
      // Not paid: the inputs the mint still holds unspent are the wallet's again.
      const back = await unspent(w, p.inputs);
      addProofs(s, back);
      const lost = inputs - sumProofs(back);
      if (lost > 0n) events.push(ecashMoved("ecash.sent", s.url, p.op, 0n, lost, p.via));
    }
  } else {
    const back = await unspent(w, p.inputs);
    if (back.length === p.inputs.length) {
      // The swap never happened: own inputs come back, a token stays redeemable by its holder.
      if (p.own) addProofs(s, back);
    } else {
      const restored = await restoreRanges(w, p.ranges);
      addProofs(s, restored);
      if (p.own) {
        addProofs(s, back);
        const kept = sumProofs(restored) + sumProofs(back);
        if (inputs > kept) events.push(ecashMoved("ecash.sent", s.url, p.op, 0n, inputs - kept, p.via));
      } else if (restored.length > 0) {
        events.push(
          ecashMoved("ecash.received", s.url, p.op, sumProofs(restored), inputs - sumProofs(restored), p.via),
        );
      }
    }
  }
  s.state.pending = null;
  record(s, events);
  await cashu.persist(s);
  return events;
};

/** Settles what is on its way at the mint of `s`; a mint that cannot answer is the owner's failure. */
export const settled = (cashu: Cashu, s: Session): Promise<NewEvent[]> => fromMint(settle(cashu, s));

/** Runs an operation that gives up `inputs`: written down first, settled by asking the mint if it fails. */
export const guarded = async <T>(
  cashu: Cashu,
  s: Session,
  pending: PendingOp,
  run: () => Promise<T>,
): Promise<T> => {
  s.state.pending = pending;
  s.current = pending.ranges;
  await cashu.persist(s);
  try {
    return await run();
  } catch (e) {
    s.current = null;
    // A refusal before anything was signed leaves the inputs unspent: settling gives them back.
    await settle(cashu, s).catch(() => undefined);
    throw failure(e, UNREACHABLE);
  } finally {
    s.current = null;
  }
};

/** Drops the proofs the mint says are spent (a pending one stays: its operation settles it). */
export const dropSpent = async (cashu: Cashu, s: Session): Promise<void> => {
  if (!s.state.unchecked) return;
  const w = await cashu.walletOf(s);
  const held = s.state.proofs;
  const states = held.length > 0 ? await w.checkProofsStates(held.map(toLike)) : [];
  if (states.length !== held.length) throw new Error("The mint answered for other proofs");
  const spent = new Set(
    held.filter((_, i) => states[i]?.state === CheckStateEnum.SPENT).map((p) => p.secret),
  );
  s.state.proofs = s.state.proofs.filter((p) => !spent.has(p.secret));
  s.state.unchecked = false;
  await cashu.persist(s);
};
