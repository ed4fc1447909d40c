import { MAX_MONEY_SATS } from "../money";
import {
  closingBalance,
  type LightningState,
  lightningBalance,
  lightningPending,
  lightningSendable,
} from "./lightning";
import { fundingGoneIn, netOf, type OnchainState } from "./onchain";

/** Balances in sats (spec 1 §3). */
export interface BalanceView {
  /** On-chain funds the wallet can spend: confirmed, plus its own unconfirmed change. */
  readonly confirmed: bigint;
  /** Incoming on-chain funds not yet confirmed. */
  readonly unconfirmed: bigint;
  /** Ours in the open channels: what can be sent plus the reserves that come back when they close. */
  readonly lightning: bigint;
  /** Ours in channels still opening: counted in the total, not spendable until the channel is usable. */
  readonly lightning_pending: bigint;
  /**
   * What can leave over lightning now (the channels screen's "Can send", Send's "up to"): the open
   * channels' next-payment limits, the reserves and commitment fees kept back.
   */
  readonly lightning_sendable: bigint;
  readonly federation: bigint;
  readonly force_close: bigint;
  /**
   * Everything the owner has, wherever it is held (the balance card's total): on-chain confirmed and
   * incoming, lightning (open and opening channels), ecash at federations and mints, and what a closing
   * channel is returning.
   */
  readonly total: bigint;
}

const withinMoney = (sats: bigint): bigint =>
  sats < 0n ? 0n : sats > MAX_MONEY_SATS ? MAX_MONEY_SATS : sats;

/** The balances; `federation`: the ecash held at federations and mints (the ecash view's total). */
export const balanceOf = (
  onchain: OnchainState,
  lightning?: LightningState,
  federation = 0n,
): BalanceView => {
  let confirmed = 0n;
  let unconfirmed = 0n;
  for (const t of onchain.txs.values()) {
    if (t.dropped) continue;
    // The wallet's own spends are trusted at once; others' payments count once they confirm.
    if (t.confirmation || t.outgoing) confirmed += netOf(t);
    else unconfirmed += netOf(t);
  }
  const parts = {
    // A server can lie about what an address holds; whatever it said, no balance is below nothing or above
    // the 21 million bitcoin that can exist.
    confirmed: withinMoney(confirmed),
    unconfirmed: withinMoney(unconfirmed),
    // A channel whose funding the chain never took holds none of the owner's coins: they are counted above.
    lightning: lightning ? lightningBalance(lightning, fundingGoneIn(onchain)) : 0n,
    lightning_pending: lightning ? lightningPending(lightning, fundingGoneIn(onchain)) : 0n,
    lightning_sendable: lightning ? lightningSendable(lightning, fundingGoneIn(onchain)) : 0n,
    federation,
    force_close: lightning ? closingBalance(lightning, fundingGoneIn(onchain)) : 0n,
  };
  const total =
    parts.confirmed +
    parts.unconfirmed +
    parts.lightning +
    parts.lightning_pending +
    parts.federation +
    parts.force_close;
  return { ...parts, total: withinMoney(total) };
};
