/**
 * The live on-chain port: a BIP84 account of the seed over an Esplora server. It keeps a small cache in
 * memory (the last scan, keyed by tip and mempool); everything durable is in the events it returns.
 */
import { hex } from "@scure/base";
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
import { diff } from "./diff";
import { type EsploraClient, EsploraError, type EsploraOptions, makeEsplora } from "./esplora";
import type { OnchainPort, SpendTarget } from "./port";
import { checkedFeeRate, feeRefusal } from "./fee-rules";
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

const broadcastDisagrees = (answer: string) =>
  new ServerUnavailable({
    message: `The server did not confirm the broadcast (it answered "${answer.slice(0, 80)}"): nothing was recorded as sent.`,
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
  fetchFn: typeof fetch = (input, init) => fetch(input, init),
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

  const planFor = async (state: OnchainState, target: SpendTarget) => {
    const view = await scan(client, account, state, cache);
    const rate = await feeRateOf(client, cache);
    const coins = spendableCoins(account, view);
    const result: SelectionResult<WalletCoin> =
      target.kind === "pay"
        ? selectCoins(coins, target.amountSats, target.script.length, rate)
        : sweepCoins(coins, target.script.length, rate, MIN_ONCHAIN_SATS);
    if (!result.ok) throw lowBalance();
    return { view, rate, selection: result.selection };
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
        const view = await scan(client, account, state, cache);
        return diff(client, account, state, view, cache);
      }),

    scan: (state) => serial(() => scan(client, account, state, cache)),

    changes: (state, view) => serial(() => diff(client, account, state, view, cache)),

    plan: (state, target) =>
      serial(async () => {
        const { rate, selection } = await planFor(state, target);
        return { amountSats: selection.amount, feeSats: selection.fee, feeRate: rate };
      }),

    spend: (state, target, labels, options) =>
      serial(async () => {
        const { view, rate, selection } = await planFor(state, target);
        // Checked here, after planning and before signing: what is paid is what the owner agreed to.
        if (options?.consent) {
          const refusal = feeRefusal(selection.fee, selection.amount, options.consent);
          if (refusal) throw refusal;
        }
        const events: NewEvent[] = await diff(client, account, state, view, cache);
        const changeIndex = Math.max(state.nextIndex.internal, view.lastUsed.internal + 1);
        const change = selection.change > 0n ? account.address("internal", changeIndex) : null;
        const signed = signSpend(account, selection, target.script, change);
        if (options?.broadcast !== false) {
          // The txid is the one computed here: a server that answers anything else did not take this
          // transaction as sent, and its answer must never reach the log.
          const answered = await client.broadcast(signed.hex);
          if (answered !== signed.txid) throw broadcastDisagrees(answered);
        }
        const txid = signed.txid;
        // The mempool changed: the next sync must look again.
        cache.mempool = null;
        if (change) {
          events.push(
            newEvent("onchain.address_issued", {
              address: change.address,
              keychain: "internal",
              index: change.index,
              labels: [],
            }),
          );
        }
        const toSelf = account.isMine(hex.encode(target.script)) ? selection.amount : 0n;
        events.push(
          newEvent("onchain.tx_seen", {
            txid,
            received: (toSelf + selection.change).toString(),
            sent: selection.inputs.reduce((sum, c) => sum + c.value, 0n).toString(),
            fee: selection.fee.toString(),
            labels: [...labels],
            outgoing: true,
            ...(target.kind === "pay"
              ? { paidTo: { script: hex.encode(target.script), amount: selection.amount.toString() } }
              : {}),
          }),
        );
        return {
          txid,
          hex: signed.hex,
          amountSats: selection.amount,
          feeSats: selection.fee,
          feeRate: rate,
          events,
        };
      }),
  };
};
