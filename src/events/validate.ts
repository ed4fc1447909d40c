import { checkEvent } from "./nostr-event";
import { MAX_MONEY_SATS } from "../money";
import { ECASH_VIAS, EVENT_VERSIONS, type EventType, isEventType, NETWORKS, type WalletEvent } from "./types";
import { upcast } from "./upcast";

/**
 * Checks an event read from outside this device (an import) before it can touch the log. Answers the
 * event, or a sentence saying what is wrong with it. Events of a newer version than this build knows
 * are refused: guessing at a newer payload could misstate a balance.
 */
export const validateEvent = (raw: unknown): WalletEvent | string => {
  if (!isObject(raw)) return "an event is not an object";
  const { id, type, v, at, device, payload } = raw;
  if (typeof id !== "string" || id.length === 0 || id.length > 100) return "an event has no valid id";
  if (!isEventType(type))
    return `unknown event type ${String(JSON.stringify(type) ?? "(none)").slice(0, 60)}`;
  if (!Number.isInteger(v) || (v as number) < 1) return `event ${id} has no valid version`;
  if ((v as number) > EVENT_VERSIONS[type]) return `event ${id} was written by a newer version of the wallet`;
  if (typeof at !== "number" || !Number.isFinite(at) || at < 0) return `event ${id} has no valid time`;
  if (typeof device !== "string" || device.length > 100) return `event ${id} has no valid device`;
  if (!isObject(payload)) return `event ${id} has no payload`;
  let event: WalletEvent;
  try {
    event = upcast({ id, type, v, at, device, payload } as WalletEvent);
  } catch (e) {
    return `event ${id}: ${e instanceof Error ? e.message : "cannot be read"}`;
  }
  const problem = PAYLOAD_CHECKS[type](event.payload as unknown as Record<string, unknown>);
  if (problem) return `event ${id} (${type}): ${problem}`;
  return event;
};

type Check = (p: Record<string, unknown>) => string | null;

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);
const str = (x: unknown) => typeof x === "string";
/** Whole sats as a decimal string, never negative and never above the 21 million BTC that can exist. */
const sats = (x: unknown) => typeof x === "string" && /^\d{1,16}$/.test(x) && BigInt(x) <= MAX_MONEY_SATS;
/** Millisats, within the same bounds. */
const msat = (x: unknown) =>
  typeof x === "string" && /^\d{1,19}$/.test(x) && BigInt(x) <= MAX_MONEY_SATS * 1000n;
const nat = (x: unknown) => Number.isInteger(x) && (x as number) >= 0;
const strings = (x: unknown) => Array.isArray(x) && x.every(str);
const hex64 = (x: unknown) => typeof x === "string" && /^[0-9a-f]{64}$/.test(x);

/** A wallet-connect request id: the request event's id, and for a multi-payment's part its own id. */
const requestId = (x: unknown) => typeof x === "string" && /^[0-9a-f]{64}(:[\x21-\x7e]{1,100})?$/.test(x);
/** A custodian's URL, id or name: a line, not a document. */
const short = (x: unknown) => typeof x === "string" && x.length > 0 && x.length <= 500;
/** A custodian's message or invite: bounded, so a mint cannot grow the log without end. */
const text = (x: unknown) => typeof x === "string" && x.length <= 4000;
const ecashMove = {
  op: short,
  mint: short,
  amount: sats,
  fee: sats,
  via: (x: unknown) => ECASH_VIAS.includes(x as never),
  payment_hash: (x: unknown) => x === null || hex64(x),
};

/** The most relays one queued event may name (a NIP-17 inbox list is short). */
export const MAX_TARGET_RELAYS = 10;

const fields = (spec: Record<string, (x: unknown) => boolean>): Check => {
  // Listed once: an import checks a hundred thousand events with the same few specs.
  const checks = Object.entries(spec);
  return (p) => {
    for (const [k, ok] of checks) if (!ok(p[k])) return `field ${k} is missing or malformed`;
    return null;
  };
};

const PAYLOAD_CHECKS: { readonly [K in EventType]: Check } = {
  "wallet.created": fields({
    walletId: str,
    network: (x) => NETWORKS.includes(x as never),
    restored: (x) => typeof x === "boolean",
  }),
  "wallet.backed_up": () => null,
  "wallet.safe_mode_set": fields({ enabled: (x) => typeof x === "boolean" }),
  "crdt.change": fields({ change: (x) => typeof x === "string" && /^[A-Za-z0-9+/]*={0,2}$/.test(x) }),
  "onchain.address_issued": fields({
    address: str,
    keychain: (x) => x === "external" || x === "internal",
    index: nat,
    labels: strings,
  }),
  "onchain.tx_seen": fields({
    txid: hex64,
    received: sats,
    sent: sats,
    fee: sats,
    labels: strings,
    outgoing: (x) => typeof x === "boolean",
    paidTo: (x) =>
      x === undefined ||
      (isObject(x) && typeof x.script === "string" && /^[0-9a-f]{2,200}$/.test(x.script) && sats(x.amount)),
  }),
  "onchain.tx_confirmed": fields({ txid: hex64, height: nat, blockHash: hex64, blockTime: nat }),
  "onchain.tx_unconfirmed": fields({ txid: hex64 }),
  "onchain.tx_dropped": fields({ txid: hex64, replacedBy: (x) => x === null || hex64(x) }),
  "ln.invoice_created": fields({
    payment_hash: hex64,
    bolt11: str,
    amount_msat: (x) => x === null || msat(x),
    description: str,
    labels: strings,
    expires_at: nat,
  }),
  "ln.lsp_fee": fields({ payment_hash: hex64, fee_msat: msat, lsp: str }),
  "ln.payment_received": fields({ payment_hash: hex64, amount_msat: msat }),
  "ln.payment_refused": fields({
    payment_hash: hex64,
    amount_msat: msat,
    skimmed_msat: msat,
    promised_msat: (x) => x === null || msat(x),
  }),
  "ln.payment_started": fields({
    payment_id: hex64,
    payment_hash: (x) => x === null || hex64(x),
    destination: str,
    bolt11: (x) => x === null || str(x),
    amount_msat: msat,
    max_fee_msat: msat,
    labels: strings,
  }),
  "ln.payment_sent": fields({ payment_id: hex64, payment_hash: hex64, preimage: hex64, fee_msat: msat }),
  "ln.payment_path_succeeded": fields({
    payment_id: hex64,
    hops: (x) => typeof x === "number" && Number.isInteger(x) && x > 0 && x <= 27,
  }),
  "ln.payment_failed": fields({ payment_id: hex64, reason: str }),
  "ln.open_requested": fields({ request_id: str, peer: str, amount_sats: sats }),
  "ln.open_interrupted": fields({ request_id: str }),
  "ln.channel_pending": fields({
    channel_id: hex64,
    peer: str,
    outpoint: str,
    capacity_sats: sats,
    fee_sats: sats,
    is_outbound: (x) => typeof x === "boolean",
    labels: strings,
    to_self_delay: (x) => x === undefined || (nat(x) && (x as number) <= 0xffff),
  }),
  "ln.delay_consented": fields({
    lsp: (x) => typeof x === "string" && /^0[23][0-9a-f]{64}$/.test(x),
    blocks: (x) => nat(x) && (x as number) <= 0xffff,
  }),
  "ln.channel_closed": fields({
    channel_id: hex64,
    peer: str,
    outpoint: (x) => x === null || str(x),
    reason: str,
    capacity_sats: (x) => x === null || sats(x),
    balance_sats: sats,
  }),
  "ln.channel_breached": fields({ channel_id: hex64, claimable_sats: sats }),
  "ln.outputs_swept": fields({
    txid: hex64,
    sats,
    channel_ids: strings,
    claims_left_sats: (x) => x === undefined || sats(x),
  }),
  "ecash.joined": fields({
    mint: short,
    kind: (x) => x === "cashu" || x === "fedimint",
    name: short,
    welcome: text,
    expires_at: (x) => x === null || nat(x),
    invite: text,
  }),
  "ecash.info": fields({
    mint: short,
    name: short,
    welcome: text,
    expires_at: (x) => x === null || nat(x),
    motd: (x) => x === undefined || x === null || text(x),
    max_receive: (x) => x === undefined || x === null || sats(x),
  }),
  "ecash.removed": fields({ mint: short }),
  "ecash.received": fields(ecashMove),
  "ecash.sent": fields(ecashMove),
  "ln.channels_changed": fields({
    channels: (x) =>
      Array.isArray(x) &&
      x.every(
        (c) =>
          isObject(c) &&
          hex64(c.channel_id) &&
          str(c.peer) &&
          (c.outpoint === null || str(c.outpoint)) &&
          sats(c.size) &&
          sats(c.balance) &&
          sats(c.reserve) &&
          sats(c.inbound) &&
          typeof c.is_usable === "boolean" &&
          typeof c.is_ready === "boolean" &&
          (c.sendable === undefined || sats(c.sendable)),
      ),
  }),
  "nostr.identity": fields({ pubkey: hex64, imported: (x) => typeof x === "boolean" }),
  // A nostr event in the log is signed by its author: one whose id or signature does not check is refused.
  "nostr.queued": fields({
    event: (x) => checkEvent(x) !== null,
    relays: (x) =>
      x === undefined ||
      (Array.isArray(x) &&
        x.length <= MAX_TARGET_RELAYS &&
        x.every((u) => str(u) && (u as string).length <= 2_000 && /^wss?:\/\//.test(u as string))),
  }),
  "nostr.published": fields({ id: hex64, relay: (x) => str(x) && (x as string).length <= 2_000 }),
  "nostr.fetched": fields({ event: (x) => checkEvent(x) !== null }),
  "nostr.failed": fields({
    id: hex64,
    refusals: (x) =>
      Array.isArray(x) &&
      x.length <= 100 &&
      x.every(
        (r) =>
          isObject(r) &&
          str(r.relay) &&
          (r.relay as string).length <= 2_000 &&
          str(r.reason) &&
          (r.reason as string).length <= 300,
      ),
  }),
  "nwc.request": fields({
    request_id: requestId,
    index: nat,
    method: (x) => str(x) && (x as string).length <= 64,
    app: hex64,
    encryption: (x) => x === "nip44_v2" || x === "nip04",
    expires_at: (x) => x === null || nat(x),
  }),
  "nwc.payment_accepted": fields({
    request_id: requestId,
    index: nat,
    payment_hash: (x) => x === null || hex64(x),
    bolt11: (x) => x === null || str(x),
    amount_msat: msat,
    fee_limit_msat: (x) => x === undefined || msat(x),
  }),
  "nwc.payment_held": fields({
    request_id: requestId,
    index: nat,
    payment_hash: hex64,
    bolt11: str,
    amount_msat: msat,
    reason: (x) => x === "approval" || x === "budget",
    expires_at: nat,
  }),
  "nwc.payment_denied": fields({ request_id: requestId }),
  "nwc.answered": fields({ request_id: requestId, response: str }),
  "chat.message": fields({
    id: hex64,
    from: hex64,
    peer: hex64,
    text: (x) => str(x) && (x as string).length <= 10_000,
    at: (x) => Number.isSafeInteger(x) && (x as number) >= 0,
    via: (x) => x === "nip17" || x === "nip04",
    wraps: (x) => Array.isArray(x) && x.length <= 10 && x.every(hex64),
  }),
  "zap.requested": fields({
    paymentHash: hex64,
    bolt11: (x) => str(x) && (x as string).length <= 10_000,
    request: (x) => str(x) && (x as string).length <= 64_000,
    service: hex64,
    recipient: hex64,
  }),
  "zap.confirmed": fields({ paymentHash: hex64, receipt: hex64 }),
  "lnaddress.reserved": fields({
    host: short,
    name: (x) => str(x) && (x as string).length <= 64,
    mint: (x) => x === null || short(x),
    pubkey: hex64,
    service: hex64,
  }),
  "lnaddress.redeemed": fields({
    message: hex64,
    at: nat,
    op: (x) => x === null || short(x),
    mint: short,
    note: (x) => str(x) && (x as string).length <= 1000,
  }),
  "plus.status": fields({
    host: short,
    plan_id: (x) => x === null || Number.isSafeInteger(x),
    timestamp: (x) => x === null || (Number.isSafeInteger(x) && (x as number) >= 0),
    plans: (x) =>
      Array.isArray(x) &&
      x.length <= 20 &&
      x.every((p) => isObject(p) && Number.isSafeInteger(p.id) && sats(p.amount)),
  }),
};
