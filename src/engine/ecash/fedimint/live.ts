/**
 * The Fedimint adapter of the ecash port, on `@fedimint/core`'s wallet services over the real client
 * (fedimint-client in wasm, in this worker). Custodians are keyed by federation id. The client keeps its
 * own notes and state machines in its own IndexedDB database and finishes what a crash interrupted when it
 * opens again; this adapter keeps, sealed in `kv`, what the log must still learn: receives waiting to be
 * paid, payments on their way, and the events of the last operations (recorded again after a crash, each
 * operation counted once).
 *
 * Untested against a federation: none can run here. What is tested is the client loading, decoding
 * invites, failing to join an unreachable federation with the spec's message, and the mapping of its
 * answers (map.ts).
 */
import type { CancelFunction, FedimintWallet } from "@fedimint/core";
import { utf8 } from "@scure/base";
import { type NewEvent, newEvent } from "../../../events/make";
import type { EcashVia } from "../../../events/types";
import type { BlobStore } from "../../lightning/store";
import { decodeBolt11 } from "../../parse";
import { EcashFailure, type EcashHooks, type EcashAdapter, type MeltQuote, reserveRefusal } from "../port";
import {
  clientName,
  closeClients,
  FEDERATION_CONNECT_FAILED,
  type FedimintLoader,
  openClient,
} from "./clients";
import {
  chooseGateway,
  feeSats,
  type Gateway,
  gatewayFeeMsat,
  mergeProgress,
  payOutcome,
  paymentOf,
  receiveOutcome,
  satsOfMsats,
} from "./map";

export interface FedimintEnv {
  readonly load: FedimintLoader;
  readonly network: string;
  readonly store: BlobStore;
  /** `mints()` lists the federation ids the owner joined. */
  readonly hooks: EcashHooks;
  readonly uuid?: () => string;
  /** How long a payment is followed before it is answered as pending (settled later). */
  readonly payWaitMs?: number;
}

interface PendingReceive {
  readonly op: string;
  readonly operationId: string;
  readonly amount: string;
  readonly paymentHash: string;
  readonly expiresAt: number | null;
  readonly via: EcashVia;
}

interface PendingPay {
  readonly op: string;
  readonly bolt11: string;
  readonly amount: string;
  readonly fee: string;
  readonly paymentHash: string | null;
  readonly via: EcashVia;
  operationId: string | null;
  internal: boolean;
}

interface FederationState {
  receives: PendingReceive[];
  pays: PendingPay[];
  outbox: NewEvent[];
}

const STATE_PREFIX = "ecash/fedimint/";
const OUTBOX_SIZE = 32;
const isFederationId = (id: string) => /^[0-9a-f]{64}$/.test(id);

const failure = (e: unknown): EcashFailure =>
  e instanceof EcashFailure
    ? e
    : new EcashFailure({
        message: e instanceof Error && e.message ? e.message : FEDERATION_CONNECT_FAILED,
        unreachable: false,
      });

/**
 * Follows a client stream until `final` says a state is the last, or `ms` passed: answers the last state
 * seen (null when none came).
 */
const follow = <T>(
  subscribe: (ok: (s: T) => void, err: (e: string) => void) => CancelFunction,
  final: (s: T) => boolean,
  ms: number,
): Promise<T | null> =>
  new Promise((resolve, reject) => {
    let last: T | null = null;
    let cancel: CancelFunction = () => {};
    const done = (f: () => void) => {
      clearTimeout(timer);
      cancel();
      f();
    };
    const timer = setTimeout(() => done(() => resolve(last)), ms);
    cancel = subscribe(
      (s) => {
        last = s;
        if (final(s)) done(() => resolve(s));
      },
      (e) => done(() => reject(new EcashFailure({ message: e, unreachable: false }))),
    );
  });

export const startFedimint = async (env: FedimintEnv): Promise<EcashAdapter> => {
  const uuid = env.uuid ?? (() => crypto.randomUUID());
  const payWaitMs = env.payWaitMs ?? 60_000;
  const states = new Map<string, FederationState>();
  const queues = new Map<string, Promise<unknown>>();
  const melts = new Map<string, MeltQuote & { mint: string; gateway: Gateway }>();

  const stateOf = async (fed: string): Promise<FederationState> => {
    let s = states.get(fed);
    if (!s) {
      const bytes = await env.store.get(`${STATE_PREFIX}${fed}`);
      s = bytes
        ? (JSON.parse(utf8.encode(bytes)) as FederationState)
        : { receives: [], pays: [], outbox: [] };
      states.set(fed, s);
    }
    return s;
  };
  const persist = (fed: string, s: FederationState) =>
    env.store.put([{ key: `${STATE_PREFIX}${fed}`, value: utf8.decode(JSON.stringify(s)) }]);
  const record = (s: FederationState, events: NewEvent[]) => {
    s.outbox = [...s.outbox, ...events].slice(-OUTBOX_SIZE);
    return events;
  };

  const clientOf = async (fed: string): Promise<FedimintWallet> => {
    if (!isFederationId(fed))
      throw new EcashFailure({ message: "Invalid Arguments were given", unreachable: false });
    const w = await openClient(env.load, clientName(env.network, fed)).catch(() => null);
    if (!w) throw new EcashFailure({ message: FEDERATION_CONNECT_FAILED, unreachable: true });
    return w;
  };

  /** Operations on one federation run one at a time. */
  const withFederation = <T>(fed: string, f: (w: FedimintWallet, s: FederationState) => Promise<T>) => {
    const run = (queues.get(fed) ?? Promise.resolve()).then(async () => {
      try {
        return await f(await clientOf(fed), await stateOf(fed));
      } catch (e) {
        throw failure(e);
      }
    });
    queues.set(
      fed,
      run.catch(() => undefined),
    );
    return run;
  };

  const move = (
    type: "ecash.received" | "ecash.sent",
    fed: string,
    op: string,
    amount: bigint,
    fee: bigint,
    via: EcashVia,
    paymentHash: string | null,
  ): NewEvent =>
    newEvent(type, {
      op,
      mint: fed,
      amount: amount.toString(),
      fee: (fee < 0n ? 0n : fee).toString(),
      via,
      payment_hash: paymentHash,
    });

  const payState = (w: FedimintWallet, p: PendingPay, ms: number) =>
    follow<unknown>(
      (ok, err) =>
        p.internal
          ? w.lightning.subscribeInternalPayment(p.operationId as string, ok, err)
          : w.lightning.subscribeLnPay(p.operationId as string, ok, err),
      (s) => payOutcome(s).status !== "pending",
      ms,
    ).then((s) => (s === null ? ({ status: "pending" } as const) : payOutcome(s)));

  /** Settles the payments a crash or a slow gateway left on their way; answers their events. */
  const settlePays = async (fed: string, w: FedimintWallet, s: FederationState): Promise<NewEvent[]> => {
    const events: NewEvent[] = [];
    for (const p of [...s.pays]) {
      if (p.operationId === null) {
        // The answer to the payment was lost: the client's operation log says whether it went out.
        const ops = await w.federation.listOperations(50);
        const found = ops.find(
          ([, log]) =>
            log.meta.variant && "pay" in log.meta.variant && log.meta.variant.pay?.invoice === p.bolt11,
        );
        if (!found) {
          s.pays = s.pays.filter((x) => x.op !== p.op);
          continue;
        }
        p.operationId = found[0].operation_id;
        p.internal =
          found[1].meta.variant && "pay" in found[1].meta.variant
            ? Boolean(found[1].meta.variant.pay?.is_internal_payment)
            : false;
      }
      const outcome = await payState(w, p, 2_000);
      if (outcome.status === "pending") continue;
      s.pays = s.pays.filter((x) => x.op !== p.op);
      if (outcome.status === "paid")
        events.push(
          ...record(s, [
            move("ecash.sent", fed, p.op, BigInt(p.amount), BigInt(p.fee), p.via, p.paymentHash),
          ]),
        );
    }
    await persist(fed, s);
    return events;
  };

  const checkAt = (fed: string) =>
    withFederation(fed, async (w, s) => {
      const events: NewEvent[] = [];
      for (const r of [...s.receives]) {
        const state = await follow<unknown>(
          (ok, err) => w.lightning.subscribeLnReceive(r.operationId, ok, err),
          (x) => receiveOutcome(x) !== "waiting",
          1_500,
        );
        const outcome = receiveOutcome(state);
        if (outcome === "waiting") continue;
        s.receives = s.receives.filter((x) => x.op !== r.op);
        if (outcome === "claimed")
          events.push(
            ...record(s, [move("ecash.received", fed, r.op, BigInt(r.amount), 0n, r.via, r.paymentHash)]),
          );
        await persist(fed, s);
      }
      return events;
    });

  const federations = () => env.hooks.mints().filter(isFederationId);

  const port: EcashAdapter = {
    balance: (fed) => withFederation(fed, async (w) => satsOfMsats(await w.balance.getBalance())),

    receiveQuote: (fed, amountSats, via = "lightning") =>
      withFederation(fed, async (w, s) => {
        const r = await w.lightning.createInvoice(Number(amountSats * 1000n), "", 3600);
        const invoice = decodeBolt11(r.invoice);
        if (!invoice || invoice.amountMsat !== amountSats * 1000n)
          throw new EcashFailure({
            message: "The federation answered an invoice for another amount.",
            unreachable: false,
          });
        s.receives.push({
          op: uuid(),
          operationId: r.operation_id,
          amount: amountSats.toString(),
          paymentHash: invoice.paymentHash,
          expiresAt: invoice.expiresAt,
          via,
        });
        await persist(fed, s);
        return {
          bolt11: r.invoice,
          paymentHash: invoice.paymentHash,
          amountSats,
          expiresAt: invoice.expiresAt,
        };
      }),

    checkReceives: async (fed) => {
      const events: NewEvent[] = [];
      for (const f of fed ? [fed] : federations()) {
        try {
          events.push(...(await checkAt(f)));
        } catch (e) {
          if (fed) throw e;
        }
      }
      return events;
    },

    meltQuote: (fed, bolt11) =>
      withFederation(fed, async (w) => {
        const invoice = decodeBolt11(bolt11);
        if (!invoice || invoice.amountMsat === null)
          throw new EcashFailure({ message: "Invalid Arguments were given", unreachable: false });
        await w.lightning.updateGatewayCache();
        const gateway = chooseGateway(await w.lightning.listGateways(), invoice.amountMsat);
        if (!gateway)
          throw new EcashFailure({ message: "The federation has no lightning gateway.", unreachable: false });
        const amountSats = (invoice.amountMsat + 999n) / 1000n;
        const fee = feeSats(gatewayFeeMsat(gateway, invoice.amountMsat));
        const refused = reserveRefusal(amountSats, fee);
        if (refused) throw refused;
        if (satsOfMsats(await w.balance.getBalance()) < amountSats + fee)
          throw new EcashFailure({ message: "Insufficient balance", unreachable: false });
        const quote = { quoteId: uuid(), bolt11, amountSats, feeSats: fee, reserveSats: fee };
        melts.set(quote.quoteId, { ...quote, mint: fed, gateway });
        return quote;
      }),

    melt: (fed, quoteId, amountSats, fee, via = "lightning") =>
      withFederation(fed, async (w, s) => {
        const seen = melts.get(quoteId);
        if (!seen || seen.mint !== fed)
          throw new EcashFailure({
            message: "This payment was not prepared; start again.",
            unreachable: false,
          });
        if (seen.amountSats !== amountSats)
          throw new EcashFailure({ message: "The amount does not match the invoice.", unreachable: false });
        // The worker pays what the owner saw: the gateway's fee now, above what was shown, is refused.
        await w.lightning.updateGatewayCache();
        const gateways = await w.lightning.listGateways();
        const gateway = chooseGateway(
          (gateways as unknown[]).filter(
            (g) => (g as Gateway).info?.gateway_id === seen.gateway.info.gateway_id,
          ),
          amountSats * 1000n,
        );
        if (!gateway || feeSats(gatewayFeeMsat(gateway, amountSats * 1000n)) > fee)
          throw new EcashFailure({
            message: "The fee changed; check the payment again.",
            unreachable: false,
          });
        const refused = reserveRefusal(amountSats, feeSats(gatewayFeeMsat(gateway, amountSats * 1000n)));
        if (refused) throw refused;
        melts.delete(quoteId);
        const p: PendingPay = {
          op: uuid(),
          bolt11: seen.bolt11,
          amount: amountSats.toString(),
          fee: fee.toString(),
          paymentHash: decodeBolt11(seen.bolt11)?.paymentHash ?? null,
          via,
          operationId: null,
          internal: false,
        };
        // Written down before the payment goes out: a crash is settled from the client's operation log.
        s.pays.push(p);
        await persist(fed, s);
        const paid = paymentOf(
          await w.lightning.payInvoice(
            seen.bolt11,
            gateways.find((g) => g.info.gateway_id === gateway.info.gateway_id)?.info,
          ),
        );
        p.operationId = paid.operationId;
        p.internal = paid.internal;
        await persist(fed, s);
        const outcome = await payState(w, p, payWaitMs);
        if (outcome.status === "pending")
          return { status: "pending" as const, amountSats, feeSats: 0n, preimage: null, events: [] };
        s.pays = s.pays.filter((x) => x.op !== p.op);
        if (outcome.status === "failed") {
          await persist(fed, s);
          throw new EcashFailure({ message: "Payment failed", unreachable: false });
        }
        const paidFee = feeSats(paid.feeMsat);
        const events = record(s, [move("ecash.sent", fed, p.op, amountSats, paidFee, via, p.paymentHash)]);
        await persist(fed, s);
        return { status: "paid" as const, amountSats, feeSats: paidFee, preimage: outcome.preimage, events };
      }),

    sendToken: (fed, amountSats) =>
      withFederation(fed, async (w, s) => {
        if (satsOfMsats(await w.balance.getBalance()) < amountSats)
          throw new EcashFailure({ message: "Insufficient balance", unreachable: false });
        const spent = await w.mint.spendNotes(Number(amountSats * 1000n));
        // Exactly the amount the owner asked for, or the notes are taken back.
        const worth = BigInt(await w.mint.parseNotes(spent.notes));
        if (worth !== amountSats * 1000n) {
          await w.mint.tryCancelSpendNotes(spent.operation_id).catch(() => undefined);
          throw new EcashFailure({
            message: "The federation could not make notes of that amount.",
            unreachable: false,
          });
        }
        const events = record(s, [move("ecash.sent", fed, uuid(), amountSats, 0n, "token", null)]);
        await persist(fed, s);
        return { token: spent.notes, events };
      }),

    receiveToken: async (notes) => {
      for (const fed of federations()) {
        let worth: bigint;
        try {
          worth = await withFederation(fed, async (w) => BigInt(await w.mint.parseNotes(notes.trim())));
        } catch {
          continue; // not this federation's notes
        }
        return withFederation(fed, async (w, s) => {
          const operationId = await w.mint.redeemEcash(notes.trim());
          const state = await follow<unknown>(
            (ok, err) => w.mint.subscribeReissueExternalNotes(operationId, ok as never, err),
            (x) => x === "Done",
            payWaitMs,
          );
          if (state !== "Done")
            throw new EcashFailure({ message: FEDERATION_CONNECT_FAILED, unreachable: true });
          const amountSats = worth / 1000n;
          const events = record(s, [move("ecash.received", fed, uuid(), amountSats, 0n, "token", null)]);
          await persist(fed, s);
          // Fedimint notes carry no note of their own.
          return { mint: fed, amountSats, memo: null, events };
        });
      }
      throw new EcashFailure({ message: "Invalid Arguments were given", unreachable: false });
    },

    /**
     * The federation's client recovers its notes itself (its secret is its own, not the wallet's 12 words):
     * whatever it holds beyond what the log counts is recorded as restored.
     */
    restore: (fed, onProgress) =>
      withFederation(fed, async (w, s) => {
        if (await w.recovery.hasPendingRecoveries()) {
          const byModule = new Map<number, { complete: number; total: number }>();
          const cancel = w.recovery.subscribeToRecoveryProgress(
            (u) => {
              try {
                onProgress?.(mergeProgress(byModule, u));
              } catch {
                // A progress answer the wallet cannot read only leaves the dialog where it was.
              }
            },
            () => undefined,
          );
          try {
            await w.recovery.waitForAllRecoveries();
          } finally {
            cancel();
          }
        }
        const held = satsOfMsats(await w.balance.getBalance());
        const logged = env.hooks.held?.(fed) ?? held;
        const events =
          held > logged
            ? record(s, [move("ecash.received", fed, uuid(), held - logged, 0n, "restore", null)])
            : [];
        await persist(fed, s);
        return { amountSats: held > logged ? held - logged : 0n, events };
      }),

    recover: async (fed) => {
      const events: NewEvent[] = [];
      for (const f of fed ? [fed] : federations()) {
        try {
          events.push(...(await withFederation(f, (w, s) => settlePays(f, w, s))));
        } catch {
          // Unreachable now: settled at the next start.
        }
      }
      return events;
    },

    stop: async () => {
      await Promise.all([...queues.values()]);
      await closeClients();
    },
  };

  // Events a crash may have kept out of the log are recorded again (each operation counts once).
  for (const fed of federations()) {
    const s = await stateOf(fed).catch(() => null);
    if (s && s.outbox.length > 0) await env.hooks.record(s.outbox);
  }
  return port;
};
