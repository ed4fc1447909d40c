/**
 * The bounds of a lightning receive as the wallet's lightning service states them (spec 1 §5): the
 * smallest payment its LSP opens a channel for and the most a receive can ask now. An LSPS2 LSP states
 * both in its fee menu (lsps2.get_info); an HTTP LSP states none up front (it refuses an amount out of its
 * range when asked its fee, and the receive screen shows that refusal), so both are null then.
 */
import { Effect } from "effect";
import { type OpeningFeeParams, WALLET_TO_SELF_DELAY } from "../../engine/lightning/lsps2";
import { type Handler, outcome } from "../context";
import { inboundSats } from "./jit";
import { nodeOf } from "./lightning";
import { msatToSatsUp } from "../../engine/amount";

export interface ReceiveLimits {
  /** The smallest payment the LSP opens a channel for, in sats; null when it does not say. */
  readonly channelMinSats: bigint | null;
  /** The most a lightning receive can ask now (the channels' room or the LSP's most); null when unsaid. */
  readonly maxSats: bigint | null;
}

/** The lowest minimum and the highest maximum of the menu's offers still valid for this wallet. */
export const menuLimits = (
  menu: readonly OpeningFeeParams[],
  nowMs: number,
  delay: number = WALLET_TO_SELF_DELAY,
): { minMsat: bigint; maxMsat: bigint } | null => {
  const live = menu.filter((p) => Date.parse(p.valid_until) > nowMs && p.max_client_to_self_delay >= delay);
  if (live.length === 0) return null;
  let minMsat = BigInt(live[0]!.min_payment_size_msat);
  let maxMsat = BigInt(live[0]!.max_payment_size_msat);
  for (const p of live) {
    const lo = BigInt(p.min_payment_size_msat);
    const hi = BigInt(p.max_payment_size_msat);
    if (lo < minMsat) minMsat = lo;
    if (hi > maxMsat) maxMsat = hi;
  }
  return { minMsat, maxMsat };
};

/** The limits from the channels' room now and what the LSP said (null: it said nothing). */
export const receiveLimits = (
  roomSats: bigint,
  said: { minMsat: bigint; maxMsat: bigint } | null,
): ReceiveLimits => {
  if (said === null) return { channelMinSats: null, maxSats: null };
  const lspMax = said.maxMsat / 1000n;
  return { channelMinSats: msatToSatsUp(said.minMsat), maxSats: roomSats > lspMax ? roomSats : lspMax };
};

export const getReceiveLimits: Handler<"GetReceiveLimits"> = (_cmd, ctx) =>
  Effect.gen(function* () {
    const ln = yield* nodeOf(ctx);
    const lsps2 = ln.lsps2();
    const room = inboundSats(ln);
    if (lsps2 === null) return outcome(receiveLimits(room, null));
    // An LSP that does not answer states nothing: the receive shows no limit rather than failing.
    const menu = yield* ctx.outside(
      Effect.tryPromise({ try: () => lsps2.menu(), catch: () => null }).pipe(
        Effect.orElseSucceed(() => null),
      ),
    );
    return outcome(
      receiveLimits(room, menu === null ? null : menuLimits(menu, ctx.stamp.now(), lsps2.delay)),
    );
  });
