/**
 * The Cashu adapter of the ecash port, on cashu-ts's `Wallet` against the mint's NUT HTTP API (through the
 * wallet's bounded transport). Secrets are deterministic from the seed (NUT-13): the counters live in the
 * sealed store and every reservation is durable before the request that uses it goes out, so whatever a
 * mint signed can be restored (NUT-09) after a crash. An operation on its way is written down first; after
 * a crash it is settled by asking the mint (NUT-07 proof states, NUT-05 quote state), never by repeating
 * it: a melt is never paid twice. Signatures are checked against the mint's DLEQ proofs (NUT-12).
 *
 *   session.ts   each mint's state, wallet and queue; the NUT-13 counters
 *   proofs.ts    proofs stored and as cashu-ts takes them; what the mint says of them; failures in words
 *   settle.ts    written down before it goes out, settled by asking after a crash (read this first)
 *   mint.ts      ecash in over lightning (mint quotes)
 *   melt.ts      ecash out over lightning (melt quotes, paid once)
 *   tokens.ts    tokens sent and received
 *   restore.ts   what the seed holds at a mint
 */
import { overCustodians } from "../custodians";
import type { EcashAdapter } from "../port";
import { melt, meltQuote } from "./melt";
import { checkQuotes, receiveQuote } from "./mint";
import { failure, UNREACHABLE } from "./proofs";
import { restore } from "./restore";
import { type CashuEnv, openCashu } from "./session";
import { dropSpent, settled } from "./settle";
import { sumProofs } from "./state";
import { receiveToken, sendToken } from "./tokens";

export type { CashuEnv } from "./session";

export const startCashu = async (env: CashuEnv): Promise<EcashAdapter> => {
  const cashu = await openCashu(env);
  const port: EcashAdapter = {
    balance: async (mint) => sumProofs((await cashu.sessionOf(mint)).state.proofs),
    receiveQuote: (mint, amountSats, via = "lightning") => receiveQuote(cashu, mint, amountSats, via),
    openReceive: async (mint, paymentHash) => {
      const q = (await cashu.sessionOf(mint)).state.quotes.find((x) => x.paymentHash === paymentHash);
      return q ? BigInt(q.amount) : null;
    },
    checkReceives: (mint) =>
      overCustodians(
        mint,
        () => env.hooks.mints(),
        (m) => checkQuotes(cashu, m),
        (e) => failure(e, UNREACHABLE),
      ),
    meltQuote: (mint, bolt11) => meltQuote(cashu, mint, bolt11),
    meltInvoice: async (mint, quoteId) => {
      const seen = cashu.melts.get(quoteId);
      return seen && seen.mint === (await cashu.sessionOf(mint)).url ? seen.bolt11 : null;
    },
    melt: (...payment) => melt(cashu, ...payment),
    sendToken: (mint, amountSats) => sendToken(cashu, mint, amountSats),
    receiveToken: (token) => receiveToken(cashu, token),
    restore: (mint, onProgress, accountedSats) => restore(cashu, mint, onProgress, accountedSats),
    // One that cannot be reached now is settled at the next start or operation.
    recover: (mint) =>
      overCustodians(
        mint,
        () => env.hooks.mints(),
        (m) => cashu.withMint(m, (s) => settled(cashu, s)).catch(() => []),
      ),
    stop: async () => {
      await Promise.all([...cashu.sessions.values()].map((s) => s.queue));
    },
  };

  // Events a crash may have kept out of the log are recorded again (each operation counts once).
  for (const m of env.hooks.mints()) {
    const s = await cashu.sessionOf(m).catch(() => null);
    if (s && s.state.outbox.length > 0) await env.hooks.record(s.state.outbox);
    // Proofs merged in from another device's state file: the mint says which were spent there (NUT-07).
    if (s?.state.unchecked) void cashu.withMint(m, (x) => dropSpent(cashu, x)).catch(() => undefined);
  }
  return port;
};
