import fc from "fast-check";
import { emptyDoc, makeChange } from "../src/crdt/doc";
import { applyChange } from "../src/crdt/doc";
import { EVENT_VERSIONS, type EventPayloads, type EventType, type WalletEvent } from "../src/events/types";

/** One step of a generated history; turned into valid events by `toEvents`. */
type Step =
  | { k: "address"; keychain: "external" | "internal"; label: string }
  | { k: "tx"; received: bigint; sent: bigint; fee: bigint; outgoing: boolean; label: string }
  | { k: "confirm"; pick: number; height: number; time: number }
  | { k: "unconfirm"; pick: number }
  | { k: "drop"; pick: number; replaced: boolean }
  | { k: "backup" }
  | { k: "safe"; enabled: boolean }
  | { k: "fiat"; code: string }
  | { k: "label"; pick: number; label: string }
  | { k: "repeat"; pick: number };

const sats = fc.bigInt({ min: 0n, max: 2_100_000_000_000_000n });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    k: fc.constant("address" as const),
    keychain: fc.constantFrom("external" as const, "internal" as const),
    label: fc.string({ maxLength: 8 }),
  }),
  fc.record({
    k: fc.constant("tx" as const),
    received: sats,
    sent: sats,
    fee: fc.bigInt({ min: 0n, max: 100_000n }),
    outgoing: fc.boolean(),
    label: fc.string({ maxLength: 8 }),
  }),
  fc.record({
    k: fc.constant("confirm" as const),
    pick: fc.nat(),
    height: fc.nat({ max: 900_000 }),
    time: fc.nat({ max: 2_000_000_000 }),
  }),
  fc.record({ k: fc.constant("unconfirm" as const), pick: fc.nat() }),
  fc.record({ k: fc.constant("drop" as const), pick: fc.nat(), replaced: fc.boolean() }),
  fc.record({ k: fc.constant("backup" as const) }),
  fc.record({ k: fc.constant("safe" as const), enabled: fc.boolean() }),
  fc.record({ k: fc.constant("fiat" as const), code: fc.constantFrom("USD", "EUR", "JPY", "BHD", "GBP") }),
  fc.record({
    k: fc.constant("label" as const),
    pick: fc.nat(),
    label: fc.string({ minLength: 1, maxLength: 8 }),
  }),
  fc.record({ k: fc.constant("repeat" as const), pick: fc.nat() }),
);

const hex = (n: number, width = 64) => n.toString(16).padStart(width, "0");

/** Turns steps into a valid event log: a wallet first, then events that refer to what exists. */
export const toEvents = (steps: readonly Step[], seed = 1): WalletEvent[] => {
  const events: WalletEvent[] = [];
  let n = 0;
  const push = <K extends EventType>(type: K, payload: EventPayloads[K], device = "aa") => {
    n++;
    events.push({
      id: `ev-${seed}-${n}`,
      type,
      v: EVENT_VERSIONS[type],
      at: 1_700_000_000_000 + n * 1000,
      device,
      payload,
    } as WalletEvent);
  };
  push("wallet.created", { walletId: `wallet-${seed}`, network: "regtest", restored: false });
  const txids: string[] = [];
  const next = { external: 0, internal: 0 };
  let doc = emptyDoc();
  for (const s of steps) {
    switch (s.k) {
      case "address":
        push("onchain.address_issued", {
          address: `bcrt1q${hex(n, 38)}`,
          keychain: s.keychain,
          index: next[s.keychain]++,
          labels: s.label ? [s.label] : [],
        });
        break;
      case "tx": {
        const txid = hex(seed * 100_000 + n);
        txids.push(txid);
        push("onchain.tx_seen", {
          txid,
          received: String(s.received),
          sent: String(s.sent),
          fee: String(s.fee),
          labels: s.label ? [s.label] : [],
          outgoing: s.outgoing,
        });
        break;
      }
      case "confirm":
        if (txids.length)
          push("onchain.tx_confirmed", {
            txid: txids[s.pick % txids.length]!,
            height: s.height,
            blockHash: hex(s.height + 7),
            blockTime: s.time,
          });
        break;
      case "unconfirm":
        if (txids.length) push("onchain.tx_unconfirmed", { txid: txids[s.pick % txids.length]! });
        break;
      case "drop":
        if (txids.length)
          push("onchain.tx_dropped", {
            txid: txids[s.pick % txids.length]!,
            replacedBy: s.replaced ? hex(999) : null,
          });
        break;
      case "backup":
        push("wallet.backed_up", {});
        break;
      case "safe":
        push("wallet.safe_mode_set", { enabled: s.enabled });
        break;
      case "fiat":
      case "label": {
        const change = makeChange(doc, "aa", (d) => {
          if (s.k === "fiat") d.settings.fiat = s.code;
          else if (txids.length) d.labels[txids[s.pick % txids.length]!] = [s.label];
        });
        if (change) {
          doc = applyChange(doc, change);
          push("crdt.change", { change });
        }
        break;
      }
      case "repeat":
        // The same fact seen again, as a resync would report it: folds must be idempotent to it.
        if (txids.length) push("onchain.tx_unconfirmed", { txid: txids[s.pick % txids.length]! });
        break;
    }
  }
  return events;
};

export const eventLog = (maxSteps = 40) =>
  fc.array(step, { maxLength: maxSteps }).map((steps) => toEvents(steps));
