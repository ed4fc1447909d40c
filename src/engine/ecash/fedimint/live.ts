/**
 * The Fedimint adapter of the ecash port, on `@fedimint/core`'s wallet services over the real client
 * (fedimint-client in wasm, in this worker). Custodians are keyed by federation id. The client keeps its
 * own notes and state machines in its own IndexedDB database and finishes what a crash interrupted when it
 * opens again; this adapter keeps, sealed in `kv`, what the log must still learn: receives waiting to be
 * paid, payments on their way, and the events of the last operations (recorded again after a crash, each
 * operation counted once).
 *
 *   federation.ts  each federation's client, state and queue
 *   receive.ts     ecash in over lightning
 *   pay.ts         ecash out over lightning through a gateway; payments a crash left on their way
 *   notes.ts       notes sent and received
 *   restore.ts     what the federation's client recovers
 *
 * Untested against a federation: none can run here. What is tested is the client loading, decoding
 * invites, failing to join an unreachable federation with the spec's message, and the mapping of its
 * answers (map.ts).
 */
import { overCustodians } from "../custodians";
import type { EcashAdapter } from "../port";
import { closeClients } from "./clients";
import { type FedimintEnv, openFedimint } from "./federation";
import { satsOfMsats } from "./map";
import { receiveNotes, sendNotes } from "./notes";
import { melt, meltQuote, settlePays } from "./pay";
import { checkReceives, receiveQuote } from "./receive";
import { restore } from "./restore";

export type { FedimintEnv } from "./federation";

export const startFedimint = async (env: FedimintEnv): Promise<EcashAdapter> => {
  const fedimint = openFedimint(env);
  const { withFederation, federations } = fedimint;

  const port: EcashAdapter = {
    balance: (fed) => withFederation(fed, async (w) => satsOfMsats(await w.balance.getBalance())),
    receiveQuote: (fed, amountSats, via = "lightning") => receiveQuote(fedimint, fed, amountSats, via),
    openReceive: async (fed, paymentHash) => {
      const r = (await fedimint.stateOf(fed)).receives.find((x) => x.paymentHash === paymentHash);
      return r ? BigInt(r.amount) : null;
    },
    checkReceives: (fed) => overCustodians(fed, federations, (f) => checkReceives(fedimint, f)),
    meltQuote: (fed, bolt11) => meltQuote(fedimint, fed, bolt11),
    meltInvoice: async (fed, quoteId) => {
      const seen = fedimint.melts.get(quoteId);
      return seen && seen.mint === fed ? seen.bolt11 : null;
    },
    melt: (...payment) => melt(fedimint, ...payment),
    sendToken: (fed, amountSats) => sendNotes(fedimint, fed, amountSats),
    receiveToken: (notes) => receiveNotes(fedimint, notes),
    restore: (fed, onProgress) => restore(fedimint, fed, onProgress),
    // One that cannot be reached now is settled at the next start.
    recover: (fed) => overCustodians(fed, federations, (f) => settlePays(fedimint, f).catch(() => [])),
    stop: async () => {
      await Promise.all([...fedimint.queues.values()]);
      await closeClients();
    },
  };

  // Events a crash may have kept out of the log are recorded again (each operation counts once).
  for (const fed of federations()) {
    const s = await fedimint.stateOf(fed).catch(() => null);
    if (s && s.outbox.length > 0) await env.hooks.record(s.outbox);
  }
  return port;
};
