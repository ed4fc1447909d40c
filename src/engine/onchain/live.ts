/**
 * The live on-chain port: a BIP84 account of the seed over an Esplora server. It keeps a small cache in
 * memory (the last scan, keyed by tip and mempool); everything durable is in the events it returns.
 */
import { hex } from "@scure/base";
import { type FetchFn, globalFetch } from "../http/bounded";
import { Effect } from "effect";
import {
  InsufficientFunds,
  isWalletError,
  ServerUnavailable,
  unexpected,
  type WalletError,
} from "../../errors";
import { type NewEvent, newEvent } from "../../events/make";
import type { Network } from "../../events/types";
import type { OnchainState } from "../../projections/onchain";
import { rootKey } from "../keys/mnemonic";
import { Bip84Account } from "./account";
import { MIN_FEE_RATE, type SelectionResult, selectCoins, sweepCoins } from "./coin-select";
import { catchUp, diff } from "./diff";
import { type EsploraClient, EsploraError, type EsploraOptions, makeEsplora } from "./esplora";
import type { OnchainPort, SignedSpend, SpendDraft, SpendTarget } from "./port";
import { checkedFeeRate, type FeeConsent, feeRefusal } from "./fee-rules";
import { emptyCache, type ScanCache, scan } from "./scan";
import { signSpend, spendableCoins, type WalletCoin } from "./spend";
import { MIN_ONCHAIN_SATS } from "./validate";

/** Blocks the wallet aims to confirm within when it picks a feerate. */
export const CONFIRMATION_TARGET = 3;

const lowBalance = () =>
  new InsufficientFunds({
    message: "You don't have enough balance for this amount and its fee.",
    key: "send.error_low_balance",
  });

/** The server answered a broadcast with something other than its txid (its words are not the owner's to read). */
const broadcastDisagrees = () =>
  new ServerUnavailable({
    message:
      "The server did not confirm the broadcast: nothing was recorded as sent. Check your activity after the next sync before trying again.",
    key: "send.error_broadcast_answer",
  });

/** The one place a failure of the server or of the code becomes a tagged error. */
const toWalletError = (e: unknown): WalletError => {
  if (isWalletError(e)) return e;
  if (e instanceof EsploraError) {
    return new ServerUnavailable({
      message: e.message,
      ...(e.status !== undefined ? { status: e.status } : {}),
    });
  }
  return unexpected(e);
};

const feeRateOf = async (client: EsploraClient, cache: ScanCache): Promise<bigint> => {
  const tip = cache.tip ?? "";
  if (cache.feeRate && cache.feeRate.tip === tip) return cache.feeRate.rate;
  const estimates = await client.feeEstimates();
  const perVbyte = estimates[String(CONFIRMATION_TARGET)] ?? estimates["6"] ?? 1;
  const rate = checkedFeeRate(perVbyte);
  if (typeof rate !== "bigint") throw rate;
  const bounded = rate < MIN_FEE_RATE ? MIN_FEE_RATE : rate;
  cache.feeRate = { tip, rate: bounded };
  return bounded;
};

export const makeOnchainPort = (
  mnemonic: string,
  network: Network,
  esploraUrl: string,
  fetchFn: FetchFn = globalFetch,
  options: EsploraOptions = {},
): OnchainPort => {
  const account = new Bip84Account(rootKey(mnemonic), network);
  const client = makeEsplora(esploraUrl, fetchFn, options);
  const cache = emptyCache();
  let queue: Promise<unknown> = Promise.resolve();

  /** One operation at a time, so a sync and a send never share a half-updated cache. */
  const serial = <T>(f: () => Promise<T>): Effect.Effect<T, WalletError> =>
    Effect.tryPromise({
      try: () => {
        const run = queue.then(f, f);
        queue = run.catch(() => undefined);
        return run;
      },
      catch: toWalletError,
    });

  /**
   * Coins held by spends signed here, by txid: from `sign` until a scan shows the transaction (its inputs are
   * then spent in the view itself) or its broadcast fails. `recorded` once its events were answered.
   */
  const held = new Map<
    string,
    {
      readonly coins: ReadonlySet<string>;
      readonly paidTo: { readonly script: string; readonly amountSats: bigint } | null;
      readonly changeIndex: number | null;
      recorded: boolean;
    }
  >();
  const outpoint = (c: { txid: string; vout: number }) => `${c.txid}:${c.vout}`;

  /** The chain as the server shows it now; spends it shows are no longer held. */
  const scanned = async (state: OnchainState) => {
    const view = await scan(client, account, state, cache);
    for (const [txid, h] of held) if (h.recorded && view.txs.has(txid)) held.delete(txid);
    return view;
  };

  const draftFor = async (state: OnchainState): Promise<SpendDraft> => {
    const view = await scanned(state);
    return { view, feeRate: await feeRateOf(client, cache) };
  };

  /** The coins of `draft` no spend holds, chosen for `target`; InsufficientFunds when they cannot pay. */
  const select = (draft: SpendDraft, target: SpendTarget) => {
    const taken = new Set<string>();
    for (const h of held.values()) for (const c of h.coins) taken.add(c);
    const coins = spendableCoins(account, draft.view).filter((c) => !taken.has(outpoint(c)));
    const result: SelectionResult<WalletCoin> =
      target.kind === "pay"
        ? selectCoins(coins, target.amountSats, target.script.length, draft.feeRate)
        : sweepCoins(coins, target.script.length, draft.feeRate, MIN_ONCHAIN_SATS);
    if (!result.ok) throw lowBalance();
    return result.selection;
  };

  /** Decides and signs on `state` as it is now; asks the server nothing. */
  const decide = (
    state: OnchainState,
    draft: SpendDraft,
    target: SpendTarget,
    consent: FeeConsent | undefined,
  ): SignedSpend => {
    const selection = select(draft, target);
    // What is paid is what the owner asked for, at a fee they agreed to: checked here, before signing.
    if (target.kind === "pay" && selection.amount !== target.amountSats)
      throw unexpected(new Error("The amount to pay is not what was asked."));
    if (consent) {
      const refusal = feeRefusal(selection.fee, selection.amount, consent);
      if (refusal) throw refusal;
    }
    // A change address never handed out, nor taken by a spend not yet recorded.
    let changeIndex = Math.max(state.nextIndex.internal, draft.view.lastUsed.internal + 1);
    for (const h of held.values())
      if (h.changeIndex !== null) changeIndex = Math.max(changeIndex, h.changeIndex + 1);
    const change = selection.change > 0n ? account.address("internal", changeIndex) : null;
    const signed = signSpend(account, selection, target.script, change);
    return {
      txid: signed.txid,
      hex: signed.hex,
      target,
      draft,
      selection,
      change: change ? { address: change.address, index: change.index } : null,
      amountSats: selection.amount,
      feeSats: selection.fee,
      feeRate: draft.feeRate,
    };
  };

  const hold = (s: SignedSpend) =>
    held.set(s.txid, {
      coins: new Set(s.selection.inputs.map(outpoint)),
      paidTo:
        s.target.kind === "pay"
          ? { script: hex.encode(s.target.script), amountSats: s.selection.amount }
          : null,
      changeIndex: s.change?.index ?? null,
      recorded: false,
    });

  const send = async (s: SignedSpend): Promise<void> => {
    // The txid is the one computed here: a server that answers anything else did not take this
    // transaction as sent, and its answer must never reach the log.
    const answered = await client.broadcast(s.hex);
    if (answered !== s.txid) throw broadcastDisagrees();
    // The mempool changed: the next sync must look again.
    cache.mempool = null;
  };

  /** The events of a spend signed (and sent) here: the change address, then the transaction. */
  const spent = (state: OnchainState, s: SignedSpend, labels: readonly string[]): NewEvent[] => {
    const events: NewEvent[] = [];
    if (s.change && !state.addresses.has(s.change.address)) {
      events.push(
        newEvent("onchain.address_issued", {
          address: s.change.address,
          keychain: "internal",
          index: s.change.index,
          labels: [],
        }),
      );
    }
    const toSelf = account.isMine(hex.encode(s.target.script)) ? s.selection.amount : 0n;
    events.push(
      newEvent("onchain.tx_seen", {
        txid: s.txid,
        received: (toSelf + s.selection.change).toString(),
        sent: s.selection.inputs.reduce((sum, c) => sum + c.value, 0n).toString(),
        fee: s.selection.fee.toString(),
        labels: [...labels],
        outgoing: true,
        ...(s.target.kind === "pay"
          ? { paidTo: { script: hex.encode(s.target.script), amount: s.selection.amount.toString() } }
          : {}),
      }),
    );
    return events;
  };

  return {
    network,
    addressAt: (keychain, index) => account.address(keychain, index).address,

    receivedAt: (address) =>
      Effect.tryPromise({
        try: async () => {
          const s = await client.addressStats(address);
          return BigInt(s.chain_stats.funded_txo_sum) + BigInt(s.mempool_stats.funded_txo_sum);
        },
        catch: toWalletError,
      }),

    sync: (state) =>
      serial(async () => {
        const view = await scanned(state);
        return diff(client, account, state, view, cache);
      }),

    scan: (state) => serial(() => scanned(state)),

    changes: (state, view) => serial(() => diff(client, account, state, view, cache)),

    plan: (state, target) =>
      serial(async () => {
        const draft = await draftFor(state);
        const selection = select(draft, target);
        return { amountSats: selection.amount, feeSats: selection.fee, feeRate: draft.feeRate };
      }),

    draft: (state) => serial(() => draftFor(state)),

    sign: (state, draft, target, consent) =>
      Effect.try({
        try: () => {
          const s = decide(state, draft, target, consent);
          hold(s);
          return s;
        },
        catch: toWalletError,
      }),

    broadcast: (s) =>
      Effect.tryPromise({
        try: () =>
          send(s).catch((e: unknown) => {
            // Not taken: its coins are free again, and nothing of it reaches the log.
            held.delete(s.txid);
            throw e;
          }),
        catch: toWalletError,
      }),

    record: (state, s, labels) => {
      const h = held.get(s.txid);
      if (h) h.recorded = true;
      return [...catchUp(account, state, s.draft.view), ...spent(state, s, labels)];
    },

    inFlight: () => [...held.values()].flatMap((h) => (h.paidTo && !h.recorded ? [h.paidTo] : [])),

    spend: (state, target, labels, options) =>
      serial(async () => {
        const draft = await draftFor(state);
        const s = decide(state, draft, target, options?.consent);
        const events: NewEvent[] = await diff(client, account, state, draft.view, cache);
        if (options?.broadcast !== false) await send(s);
        return { ...s, events: [...events, ...spent(state, s, labels)] };
      }),
  };
};
