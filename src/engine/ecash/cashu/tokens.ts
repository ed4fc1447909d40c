/**
 * Ecash as a token (NUT-00): sent (the exact coins as they are, offline, or a swap for them) and received (a
 * swap of the token's proofs for new ones of the wallet), each written down before it goes out.
 */
import { ecashMoved } from "../moved";
import { getEncodedToken, getTokenMetadata } from "@cashu/cashu-ts";
import { normaliseMintUrl } from "./info";
import { refusal, toLike, toStored } from "./proofs";
import { addProofs, type Cashu, record } from "./session";
import { guarded, settled } from "./settle";
import { sumProofs } from "./state";

/** The token text without a `cashu:` scheme. */
const bare = (token: string) => token.trim().replace(/^cashu:(\/\/)?/i, "");

/** A token of `amountSats` from the mint of `mint`. */
export const sendToken = (cashu: Cashu, mint: string, amountSats: bigint) =>
  cashu.withMint(mint, async (s) => {
    if (s.state.pending) await settled(cashu, s);
    const w = await cashu.walletOf(s, true);
    const held = s.state.proofs.map(toLike);
    if (sumProofs(s.state.proofs) < amountSats) throw refusal("Insufficient balance");
    const op = cashu.uuid();
    // Coins that make the amount exactly go as they are: no mint needed (offline).
    const exact = w.selectProofsToSend(held, amountSats, false, true);
    if (exact.send.length > 0 && sumProofs(exact.send.map(toStored)) === amountSats) {
      const token = getEncodedToken({ mint: s.url, proofs: exact.send, unit: "sat" });
      s.state.proofs = exact.keep.map(toStored);
      const events = record(s, [ecashMoved("ecash.sent", s.url, op, amountSats, 0n, "token")]);
      await cashu.persist(s);
      return { token, events };
    }
    const selection = w.selectProofsToSend(held, amountSats, true);
    const inputs = selection.send.map(toStored);
    s.state.proofs = selection.keep.map(toStored);
    const res = await guarded(
      cashu,
      s,
      { kind: "swap", op, inputs, own: true, ranges: [], sendAmount: amountSats.toString(), via: "token" },
      () => w.send(amountSats, selection.send, { includeFees: false }),
    );
    const kept = res.keep.map(toStored);
    addProofs(s, kept);
    const token = getEncodedToken({ mint: s.url, proofs: res.send, unit: "sat" });
    const fee = sumProofs(inputs) - amountSats - sumProofs(kept);
    const events = record(s, [ecashMoved("ecash.sent", s.url, op, amountSats, fee, "token")]);
    s.state.pending = null;
    await cashu.persist(s);
    return { token, events };
  });

/** Redeems `token` at its mint, which the owner must have joined. */
export const receiveToken = async (cashu: Cashu, token: string) => {
  let meta: ReturnType<typeof getTokenMetadata>;
  try {
    meta = getTokenMetadata(bare(token));
  } catch {
    throw refusal("Invalid Arguments were given");
  }
  const url = normaliseMintUrl(meta.mint);
  if (!url || meta.unit !== "sat") throw refusal("Invalid Arguments were given");
  if (!cashu.env.hooks.mints().includes(url))
    throw refusal(`Join the mint ${url} before receiving its ecash.`);
  return cashu.withMint(url, async (s) => {
    if (s.state.pending) await settled(cashu, s);
    const w = await cashu.walletOf(s);
    const decoded = w.decodeToken(bare(token));
    const inputs = decoded.proofs.map(toStored);
    const op = cashu.uuid();
    const proofs = await guarded(
      cashu,
      s,
      { kind: "swap", op, inputs, own: false, ranges: [], via: "token" },
      () => w.receive(decoded, { requireDleq: inputs.every((p) => p.dleq !== undefined) }),
    );
    const got = proofs.map(toStored);
    addProofs(s, got);
    const amountSats = sumProofs(got);
    const events = record(s, [
      ecashMoved("ecash.received", s.url, op, amountSats, sumProofs(inputs) - amountSats, "token"),
    ]);
    s.state.pending = null;
    await cashu.persist(s);
    return { mint: url, amountSats, memo: meta.memo?.slice(0, 500) ?? null, events };
  });
};
