/**
 * The owner's lightning address as the log knows it: the reservation (where the service sends payments
 * while the wallet is not reachable) and the service's token messages already redeemed. A message is
 * redeemed once: a second record of it (another device's log, a retry after a crash) changes nothing.
 */
import { projection } from "./projection";

export interface Reservation {
  readonly host: string;
  readonly name: string;
  readonly mint: string | null;
  readonly pubkey: string;
  readonly service: string;
}

export interface Redeemed {
  readonly op: string | null;
  readonly mint: string;
  readonly note: string;
}

export interface LnAddressState {
  reservation: Reservation | null;
  /** By message id. */
  readonly redeemed: Map<string, Redeemed>;
  /** The newest redeemed message's date (unix seconds), where the next read starts from. */
  newest: number;
}

export const lnAddressProjection = projection<LnAddressState, LnAddressState>({
  name: "lnaddress",
  initial: () => ({ reservation: null, redeemed: new Map(), newest: 0 }),
  apply: (s, e) => {
    switch (e.type) {
      case "lnaddress.reserved": {
        const { host, name, mint, pubkey, service } = e.payload;
        s.reservation = { host, name, mint, pubkey, service };
        return s;
      }
      case "lnaddress.redeemed": {
        const p = e.payload;
        if (s.redeemed.has(p.message)) return s;
        s.redeemed.set(p.message, { op: p.op, mint: p.mint, note: p.note });
        if (p.at > s.newest) s.newest = p.at;
        return s;
      }
      default:
        return s;
    }
  },
  view: (s) => s,
});

/** The ecash activity row of a redeemed operation (see the ecash projection's move ids). */
export const receivedMoveId = (op: string): string => `ecash:ecash.received:${op}`;

/** The payers' notes of redeemed tokens, as labels of their activity rows. */
export const addressNotes = (s: LnAddressState): { [id: string]: string[] } => {
  const out: { [id: string]: string[] } = {};
  for (const r of s.redeemed.values())
    if (r.op !== null && r.note !== "") out[receivedMoveId(r.op)] = [r.note];
  return out;
};
