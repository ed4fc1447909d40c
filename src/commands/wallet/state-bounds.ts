/**
 * What a state file's log adds up to must be possible before it is imported. Each amount in each event is
 * already within the 21 million bitcoin that can exist (`validateEvent`); their sums are checked here, on the
 * fold of the log as it would be after the import: the ecash at each custodian, all ecash, the on-chain and
 * lightning balances and everything together. Ecash is only ever held at a custodian the owner joined, so a
 * log that moves ecash at a mint it never joined is refused too.
 */
import type { WalletEvent } from "../../events/types";
import { MAX_MONEY_SATS } from "../../money";
import type { States } from "../../projections";
import { closingBalance, lightningBalance } from "../../projections/lightning";
import { netOf } from "../../projections/onchain";

const tooMuch = (what: string, sats: bigint) =>
  `${what} adds up to ${sats} sats, more than the 21 million bitcoin that can exist`;

/** Why `states` (the fold of `events`) cannot be a real wallet's, or null when it can. */
export const impossibleHoldings = (states: States, events: Iterable<WalletEvent>): string | null => {
  const joined = new Set<string>();
  const moved = new Set<string>();
  for (const e of events) {
    if (e.type === "ecash.joined") joined.add(e.payload.mint);
    else if (e.type === "ecash.received" || e.type === "ecash.sent") moved.add(e.payload.mint);
  }
  for (const mint of moved)
    if (!joined.has(mint)) return `it holds ecash at ${mint.slice(0, 100)}, a mint the wallet never joined`;
  let ecash = 0n;
  for (const c of states.ecash.custodians.values()) {
    if (c.balance > MAX_MONEY_SATS) return tooMuch(`the ecash at ${c.mint.slice(0, 100)}`, c.balance);
    if (c.balance > 0n) ecash += c.balance;
  }
  if (ecash > MAX_MONEY_SATS) return tooMuch("the ecash", ecash);
  let onchain = 0n;
  for (const t of states.onchain.txs.values()) if (!t.dropped) onchain += netOf(t);
  if (onchain > MAX_MONEY_SATS) return tooMuch("the on-chain balance", onchain);
  const lightning = lightningBalance(states.lightning) + closingBalance(states.lightning);
  if (lightning > MAX_MONEY_SATS) return tooMuch("the lightning balance", lightning);
  const total = ecash + (onchain > 0n ? onchain : 0n) + lightning;
  if (total > MAX_MONEY_SATS) return tooMuch("the wallet", total);
  return null;
};
