/**
 * The ecash port over both adapters: a custodian id that is a federation id (64 hex digits) goes to the
 * Fedimint adapter, a mint URL to the Cashu one. The Fedimint adapter (and its 8 MB client) loads only
 * when a federation is in use. Resync (safe mode's recovery of one custodian) runs here, in the
 * background, its progress polled by the screen and its events recorded when it ends.
 */
import type { NewEvent } from "../../events/make";
import {
  type EcashAdapter,
  EcashFailure,
  type EcashHooks,
  type EcashPort,
  type RestoreProgress,
  type ResyncProgress,
} from "./port";

export const isFederationId = (id: string): boolean => /^[0-9a-f]{64}$/.test(id);

export interface RouterEnv {
  readonly cashu: (hooks: EcashHooks) => Promise<EcashAdapter>;
  /** Null where no Fedimint client can run (Node without it). */
  readonly fedimint: ((hooks: EcashHooks) => Promise<EcashAdapter>) | null;
  readonly hooks: EcashHooks;
}

const only = (hooks: EcashHooks, keep: (id: string) => boolean): EcashHooks => ({
  ...hooks,
  mints: () => hooks.mints().filter(keep),
});

export const startEcashRouter = async (env: RouterEnv): Promise<EcashPort> => {
  const cashu = await env.cashu(only(env.hooks, (m) => !isFederationId(m)));
  const fedHooks = only(env.hooks, isFederationId);
  let fedimint: Promise<EcashAdapter> | null = null;
  const fed = (): Promise<EcashAdapter> => {
    const start = env.fedimint;
    if (!start)
      return Promise.reject(
        new EcashFailure({ message: "Failed to connect to a federation.", unreachable: true }),
      );
    fedimint ??= start(fedHooks);
    fedimint.catch(() => {
      fedimint = null;
    });
    return fedimint;
  };
  const of = (mint: string) => (isFederationId(mint) ? fed() : Promise.resolve(cashu));
  // A wallet with a federation loads its client now, beside the mints' start: what a crash kept is recorded.
  if (fedHooks.mints().length > 0) void fed().catch(() => undefined);

  /** Over every custodian (or one): Fedimint's only when it is loaded or a federation is joined. */
  const both = async (
    mint: string | undefined,
    f: (a: EcashAdapter) => Promise<readonly NewEvent[]>,
  ): Promise<readonly NewEvent[]> => {
    if (mint) return f(await of(mint));
    const events = [...(await f(cashu))];
    if (fedHooks.mints().length > 0) events.push(...(await f(await fed())));
    return events;
  };

  const progress = new Map<string, ResyncProgress>();
  /** The restore from the seed running now (the owner's "Recover ecash"), with how far it got. */
  let restoring: (RestoreProgress & { mint: string }) | null = null;

  return {
    balance: async (mint) => (await of(mint)).balance(mint),
    receiveQuote: async (mint, amount, via) => (await of(mint)).receiveQuote(mint, amount, via),
    openReceive: async (mint, paymentHash) => (await of(mint)).openReceive(mint, paymentHash),
    checkReceives: (mint) => both(mint, (a) => a.checkReceives(mint)),
    meltQuote: async (mint, bolt11) => (await of(mint)).meltQuote(mint, bolt11),
    meltInvoice: async (mint, quoteId) => (await of(mint)).meltInvoice(mint, quoteId),
    melt: async (mint, quoteId, amount, fee, via) => (await of(mint)).melt(mint, quoteId, amount, fee, via),
    sendToken: async (mint, amount) => (await of(mint)).sendToken(mint, amount),
    // Cashu tokens say so (cashuA/cashuB); anything else is tried as a federation's notes.
    receiveToken: async (token) =>
      /^(cashu:(\/\/)?)?cashu[AB]/i.test(token.trim()) || fedHooks.mints().length === 0
        ? cashu.receiveToken(token)
        : (await fed()).receiveToken(token),
    restore: async (mint, onProgress, accountedSats) => {
      const mine = { mint, complete: 0, total: 0 };
      restoring = mine;
      try {
        return await (await of(mint)).restore(
          mint,
          (p) => {
            if (restoring?.mint === mint) restoring = { ...p, mint };
            onProgress?.(p);
          },
          accountedSats,
        );
      } finally {
        if (restoring?.mint === mint) restoring = null;
      }
    },
    restoreProgress: () => restoring,
    recover: (mint) => both(mint, (a) => a.recover(mint)),

    resync: async (mint) => {
      if (progress.get(mint)?.done === false) return;
      const adapter = await of(mint);
      const set = (p: Partial<ResyncProgress>) => {
        const before = progress.get(mint) ?? {
          total: 0,
          complete: 0,
          done: false,
          recoveredSats: 0n,
          error: null,
        };
        progress.set(mint, { ...before, ...p });
      };
      progress.set(mint, { total: 0, complete: 0, done: false, recoveredSats: 0n, error: null });
      void adapter
        // What the log already counts there is not recorded again (another device's events, brought
        // back from the storage server, count proofs this device did not hold).
        .restore(mint, (p) => set({ complete: p.complete, total: p.total }), env.hooks.held?.(mint))
        .then(async (r) => {
          await env.hooks.record(r.events);
          set({ done: true, recoveredSats: r.amountSats });
        })
        .catch((e: unknown) =>
          set({
            done: true,
            error: e instanceof Error && e.message ? e.message : "Failed to connect to a federation.",
          }),
        );
    },
    resyncProgress: (mint) => progress.get(mint) ?? null,

    stop: async () => {
      await cashu.stop();
      if (fedimint) await (await fedimint.catch(() => null))?.stop();
    },
  };
};
