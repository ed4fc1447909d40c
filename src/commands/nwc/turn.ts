/**
 * What the parts of the wallet-connect desk share: the host it runs in, one payment a request asks for,
 * and the turn in which a request is decided (the events it appends and the replies it sends).
 */
import type { LightningPort } from "../../engine/lightning/live";
import type { IncomingRequest, NwcPort, Reply, ReplyTarget } from "../../engine/nwc/service";
import type { Nip47Response } from "../../engine/nwc/protocol";
import type { NwcProfileRecord } from "../../crdt/doc";
import { type NewEvent, newEvent } from "../../events/make";
import type { Network } from "../../events/types";
import type { States } from "../../projections";
import { crdtProjection } from "../../projections/crdt";
import { type NwcRequest, nwcProfileOf } from "../../projections/nwc";
import type { Command } from "../command";
import type { WireError } from "../../errors";

type CommandAnswer = { ok: true; value: unknown } | { ok: false; error: WireError };

export interface NwcDeskHost {
  readonly enqueue: <T>(f: () => Promise<T>) => Promise<T>;
  readonly commit: (events: readonly NewEvent[]) => Promise<void>;
  readonly states: () => States;
  /** Runs a command as the owner's screens do (it takes its own turn in the queue). */
  readonly run: (command: Command) => Promise<CommandAnswer>;
  readonly nwc: () => NwcPort | null;
  readonly lightning: () => LightningPort | null;
  /** Resolves once the lightning node runs, failed, or will not start. */
  readonly whenLightning: () => Promise<void>;
  /** Resolves once the node's channels are back with their peers (or it has none), or after a while. */
  readonly whenChannelsBack: () => Promise<void>;
  readonly now: () => number;
  readonly network: Network;
}

/** The desk as its parts see it: the host, and what this run of the wallet knows beyond the log. */
export interface Desk {
  readonly host: NwcDeskHost;
  /** Woken after each commit (a payment waiting for its outcome looks again). */
  readonly waiters: Set<() => void>;
  /** Requests this run accepted: their payments are under way here, not left over by a stop. */
  readonly acceptedHere: Set<string>;
}

/** One payment a request asks for (a multi-payment has several, each with its own id). */
export interface PaymentPart {
  readonly requestId: string;
  readonly d?: string;
  readonly method: string;
  readonly bolt11: string | null;
  readonly keysendTo: string | null;
  readonly paymentHash: string | null;
  readonly amountMsat: bigint;
  /** The most it may pay in routing fees: reserved from the budget with the amount. */
  readonly feeLimitMsat: bigint;
  readonly expiresAt: number;
}

export interface InvoiceAsked {
  readonly amountSats: bigint;
  readonly description: string;
  readonly descriptionHash: string | null;
}

/** What a request turned into in its queue turn: replies now, and payments to make after it. */
export interface Decision {
  readonly events: NewEvent[];
  readonly replies: Reply[];
  readonly pay: PaymentPart[];
  invoice: InvoiceAsked | null;
}

/** The decision being made for `r`, with the two things every part of it does: record and answer. */
export interface Turn {
  readonly r: IncomingRequest;
  readonly d: Decision;
  /** Records a request id as seen (a multi-payment's parts each have their own). */
  readonly record: (requestId?: string) => void;
  readonly answer: (response: Nip47Response, requestId?: string, tag?: string) => void;
}

export const turnOf = (r: IncomingRequest): Turn => {
  const d: Decision = { events: [], replies: [], pay: [], invoice: null };
  return {
    r,
    d,
    record: (requestId = r.requestId) =>
      d.events.push(
        newEvent("nwc.request", {
          request_id: requestId,
          index: r.index,
          method: r.method,
          app: r.app,
          encryption: r.encryption,
          expires_at: r.expiresAt,
        }),
      ),
    answer: (response, requestId = r.requestId, tag) => {
      d.events.push(answered(requestId, response));
      d.replies.push(tag === undefined ? { response } : { response, d: tag });
    },
  };
};

export const answered = (requestId: string, response: Nip47Response): NewEvent =>
  newEvent("nwc.answered", { request_id: requestId, response: JSON.stringify(response) });

/** Records an answer sent after the request's own turn (a payment's outcome, an invoice made). */
export const recordAnswer = (desk: Desk, requestId: string, response: Nip47Response): Promise<void> =>
  desk.host.enqueue(() => desk.host.commit([answered(requestId, response)]));

/** Resolves after the next commit. */
export const nextCommit = (desk: Desk): Promise<void> =>
  new Promise<void>((resolve) => {
    const wake = () => {
      desk.waiters.delete(wake);
      resolve();
    };
    desk.waiters.add(wake);
  });

export const responseOf = (json: string): Nip47Response | null => {
  try {
    return JSON.parse(json) as Nip47Response;
  } catch {
    return null;
  }
};

export const seconds = (ms: number): number => Math.floor(ms / 1000);

export const profileOf = (s: States, index: number): NwcProfileRecord | null =>
  nwcProfileOf(crdtProjection.view(s.crdt), index);

/** Where the answer to a recorded request goes; a multi-payment's part names itself by `d`. */
export const targetOf = (r: NwcRequest): { target: ReplyTarget; d?: string } => {
  const cut = r.requestId.indexOf(":");
  return {
    target: {
      index: r.index,
      app: r.app,
      requestId: cut < 0 ? r.requestId : r.requestId.slice(0, cut),
      encryption: r.encryption,
    },
    ...(cut < 0 ? {} : { d: r.requestId.slice(cut + 1) }),
  };
};
