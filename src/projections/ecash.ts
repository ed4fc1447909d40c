/**
 * The ecash custodians the owner joined (Cashu mints, Fedimint federations) and what each holds for the
 * wallet. Balances fold from `ecash.received` / `ecash.sent`; an operation (`op`) counts once however often
 * its event is recorded (the engine re-records what a crash may have kept from the log).
 */
import type { EcashKind, WalletEvent } from "../events/types";
import { projection } from "./projection";

export interface Custodian {
  readonly mint: string;
  readonly kind: EcashKind;
  readonly name: string;
  readonly welcome: string;
  readonly expires_at: number | null;
  /** Its message of the day, as last read (null when none). */
  readonly motd: string | null;
  /** The most it mints in one receive, as last read (null when unsaid). */
  readonly max_receive: bigint | null;
  readonly invite: string;
  /** Sats held there for the wallet (what it received less what it sent and paid in fees). */
  readonly balance: bigint;
  readonly joined: boolean;
  /** Order of joining, so lists read the same on every machine. */
  readonly order: number;
}

/** One move of ecash, for the activity list. */
export interface EcashMove {
  readonly id: string;
  readonly mint: string;
  readonly inbound: boolean;
  readonly amount: bigint;
  readonly fee: bigint;
  readonly via: string;
  /** Unix ms, from the event. */
  readonly at: number;
}

export interface EcashState {
  readonly custodians: Map<string, Custodian>;
  readonly ops: Set<string>;
  readonly moves: EcashMove[];
}

const patch = (s: EcashState, mint: string, f: (c: Custodian) => Custodian): void => {
  const c = s.custodians.get(mint);
  if (c) s.custodians.set(mint, f(c));
};

/** Ecash moved at a custodian not (or no longer) joined: it still counts, under its URL. */
const ensure = (s: EcashState, mint: string): void => {
  if (s.custodians.has(mint)) return;
  s.custodians.set(mint, {
    mint,
    kind: "cashu",
    name: mint,
    welcome: "",
    expires_at: null,
    motd: null,
    max_receive: null,
    invite: mint,
    balance: 0n,
    joined: false,
    order: s.custodians.size,
  });
};

export const ecashProjection = projection<EcashState, EcashState>({
  name: "ecash",
  initial: () => ({ custodians: new Map(), ops: new Set(), moves: [] }),
  apply: (s, e: WalletEvent) => {
    switch (e.type) {
      case "ecash.joined": {
        const p = e.payload;
        const before = s.custodians.get(p.mint);
        s.custodians.set(p.mint, {
          mint: p.mint,
          kind: p.kind,
          name: p.name,
          welcome: p.welcome,
          expires_at: p.expires_at,
          motd: before?.motd ?? null,
          max_receive: before?.max_receive ?? null,
          invite: p.invite,
          balance: before?.balance ?? 0n,
          joined: true,
          order: before?.order ?? s.custodians.size,
        });
        return s;
      }
      case "ecash.info":
        patch(s, e.payload.mint, (c) => ({
          ...c,
          name: e.payload.name,
          welcome: e.payload.welcome,
          expires_at: e.payload.expires_at,
          motd: e.payload.motd ?? null,
          max_receive:
            e.payload.max_receive === undefined || e.payload.max_receive === null
              ? null
              : BigInt(e.payload.max_receive),
        }));
        return s;
      case "ecash.removed":
        patch(s, e.payload.mint, (c) => ({ ...c, joined: false }));
        return s;
      case "ecash.received":
      case "ecash.sent": {
        const p = e.payload;
        if (s.ops.has(`${e.type}:${p.op}`)) return s;
        s.ops.add(`${e.type}:${p.op}`);
        ensure(s, p.mint);
        const delta = e.type === "ecash.received" ? BigInt(p.amount) : -(BigInt(p.amount) + BigInt(p.fee));
        // A settled operation that moved nothing (an interrupted swap that came back whole) is no activity.
        if (delta !== 0n)
          s.moves.push({
            id: `ecash:${e.type}:${p.op}`,
            mint: p.mint,
            inbound: e.type === "ecash.received",
            amount: BigInt(p.amount),
            fee: BigInt(p.fee),
            via: p.via,
            at: e.at,
          });
        patch(s, p.mint, (c) => ({ ...c, balance: c.balance + delta }));
        return s;
      }
      default:
        return s;
    }
  },
  view: (s) => s,
});

/** The custodians the owner has joined, in the order joined. */
export const joinedCustodians = (s: EcashState): Custodian[] =>
  [...s.custodians.values()].filter((c) => c.joined).sort((a, b) => a.order - b.order);

/** Every sat held in ecash, joined or not (custody is shown, never hidden). Never below 0. */
export const ecashTotal = (s: EcashState): bigint => {
  let total = 0n;
  for (const c of s.custodians.values()) if (c.balance > 0n) total += c.balance;
  return total;
};

/** Whether the owner has an ecash custodian, or ecash left at one: the ecash engine runs then. */
export const hasEcash = (s: EcashState): boolean => {
  for (const c of s.custodians.values()) if (c.joined || c.balance > 0n) return true;
  return false;
};
