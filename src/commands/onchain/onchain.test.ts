import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../../../harness/world";
import { newMnemonic } from "../../engine/keys/mnemonic";
import type { OnchainPort } from "../../engine/onchain/port";
import { stamp } from "../../events/make";
import type { WalletEvent } from "../../events/types";
import { balanceOf } from "../../projections/balance";
import { foldEvents, initialStates, type States } from "../../projections";
import type { Command, CommandTag, ResultOf } from "../command";
import type { HandlerContext } from "../context";
import type { WalletError } from "../../errors";
import { makeOnchainPort } from "../../engine/onchain/live";
import { hex } from "@scure/base";
import { onchainHandlers, REPEAT_WINDOW_MS, recentSameSend } from "./onchain";
import { checkDestination } from "../../engine/onchain/validate";

type OnchainCommand = Extract<Command, { _tag: keyof typeof onchainHandlers }>;

let counter = 0;
const stamper = { uuid: () => `e-${++counter}`, now: () => 1_700_000_000_000 + counter, device: "test" };

/** A wallet as the host runs it: a log, its fold, and a port; each command's events are appended. */
class TestWallet {
  log: WalletEvent[] = [];
  states: States = initialStates();
  constructor(
    readonly mnemonic: string,
    public port: OnchainPort,
  ) {}

  private ctx(): HandlerContext {
    return {
      states: this.states,
      network: "regtest",
      stamp: stamper,
      keys: { mnemonic: () => Effect.succeed(this.mnemonic) },
      onchain: this.port,
      lightning: null,
      outside: (effect) => effect,
    };
  }

  async run<K extends OnchainCommand["_tag"] & CommandTag>(cmd: Extract<OnchainCommand, { _tag: K }>) {
    const handler = onchainHandlers[cmd._tag] as unknown as (
      c: typeof cmd,
      ctx: HandlerContext,
    ) => Effect.Effect<
      { result: ResultOf<K>; events: readonly Parameters<typeof stamp>[0][number][] },
      WalletError
    >;
    const out = await Effect.runPromise(handler(cmd, this.ctx()));
    const events = stamp(out.events, stamper);
    this.log.push(...events);
    this.states = foldEvents(events, this.states);
    return { result: out.result, events };
  }

  async fail(cmd: OnchainCommand): Promise<WalletError> {
    const handler = onchainHandlers[cmd._tag] as unknown as (
      c: typeof cmd,
      ctx: HandlerContext,
    ) => Effect.Effect<unknown, WalletError>;
    const before = this.log.length;
    const err = await Effect.runPromise(Effect.flip(handler(cmd, this.ctx())));
    expect(this.log.length).toBe(before);
    return err;
  }

  get balance() {
    return balanceOf(this.states.onchain);
  }
}

describe("on-chain commands against the local regtest world", () => {
  let h: Harness;
  let w: TestWallet;

  beforeAll(async () => {
    h = await startHarness({ port: 0 });
    const mnemonic = newMnemonic();
    w = new TestWallet(mnemonic, makeOnchainPort(mnemonic, "regtest", h.esploraUrl, fetch));
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("hands out fresh receive addresses with their labels", async () => {
    const a = await w.run({ _tag: "GetNewAddress", labels: ["savings"] });
    expect(a.result).toMatchObject({ index: 0, keychain: "external" });
    expect(a.result.address).toMatch(/^bcrt1q/);
    expect(a.events[0]).toMatchObject({ type: "onchain.address_issued", payload: { labels: ["savings"] } });
    const b = await w.run({ _tag: "GetNewAddress", labels: [] });
    expect(b.result.index).toBe(1);
    expect(b.result.address).not.toBe(a.result.address);
  });

  it("makes a BIP21 request for a new address", async () => {
    const r = await w.run({ _tag: "CreateBip21", amountSats: 12_345n, labels: ["coffee"] });
    expect(r.result.uri).toBe(`bitcoin:${r.result.address}?amount=0.00012345&label=coffee`);
    expect(w.states.onchain.nextIndex.external).toBe(3);
  });

  it("receives: unconfirmed first, confirmed after a block, and syncs idempotently", async () => {
    const address = w.states.onchain.addresses.values().next().value!.address;
    const txid = await h.faucet(address, 100_000n);
    const seen = await w.run({ _tag: "SyncOnchain" });
    expect(seen.events.map((e) => e.type)).toEqual(["onchain.tx_seen"]);
    expect(seen.events[0]!.payload).toMatchObject({ txid, received: "100000", sent: "0", outgoing: false });
    expect(w.balance).toMatchObject({ confirmed: 0n, unconfirmed: 100_000n });
    expect((await w.run({ _tag: "SyncOnchain" })).events).toEqual([]);

    await h.mine(1);
    const confirmed = await w.run({ _tag: "SyncOnchain" });
    expect(confirmed.events.map((e) => e.type)).toEqual(["onchain.tx_confirmed"]);
    expect(w.balance).toMatchObject({ confirmed: 100_000n, unconfirmed: 0n });
    expect((await w.run({ _tag: "SyncOnchain" })).events).toEqual([]);
  });

  it("refuses bad sends with the catalogue's errors and appends nothing", async () => {
    const to = h.faucetAddress;
    expect(await w.fail({ _tag: "SendToAddress", address: to, amountSats: 0n, labels: [] })).toMatchObject({
      _tag: "InvalidInput",
      key: "send.error_amount_zero",
    });
    expect(await w.fail({ _tag: "SendToAddress", address: to, amountSats: 545n, labels: [] })).toMatchObject({
      _tag: "InvalidInput",
      key: "receive.error_under_min_onchain",
    });
    expect(
      await w.fail({ _tag: "EstimateTxFee", address: to, amountSats: 2_099_999_997_690_001n }),
    ).toMatchObject({ key: "receive.amount_editable.more_than_21m" });
    expect(await w.fail({ _tag: "CreateBip21", amountSats: 100n, labels: [] })).toMatchObject({
      key: "receive.error_under_min_onchain",
    });
    expect(
      await w.fail({
        _tag: "SendToAddress",
        address: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
        amountSats: 1000n,
        labels: [],
      }),
    ).toMatchObject({ _tag: "WrongNetwork", message: "Destination is for bitcoin but you're on regtest" });
    expect(await w.fail({ _tag: "CheckAddress", address: "not an address" })).toMatchObject({
      _tag: "InvalidInput",
      key: "send.error_address",
      message: "Address not recognised.",
    });
    expect(
      await w.fail({ _tag: "SendToAddress", address: to, amountSats: 100_000n, labels: [] }),
    ).toMatchObject({
      _tag: "InsufficientFunds",
      key: "send.error_low_balance",
    });
    expect((await w.run({ _tag: "CheckAddress", address: to })).result).toEqual({ network: "regtest" });
  });

  it("sends with change, signalling replace-by-fee, and the balance follows at once", async () => {
    const to = h.faucetAddress;
    const estimate = await w.run({ _tag: "EstimateTxFee", address: to, amountSats: 30_000n });
    const sent = await w.run({ _tag: "SendToAddress", address: to, amountSats: 30_000n, labels: ["rent"] });
    expect(sent.result.feeSats).toBe(estimate.result.feeSats);
    expect(sent.events.map((e) => e.type)).toEqual(["onchain.address_issued", "onchain.tx_seen"]);
    expect(sent.events[0]!.payload).toMatchObject({ keychain: "internal", index: 0 });
    const change = 100_000n - 30_000n - sent.result.feeSats;
    expect(sent.events[1]!.payload).toMatchObject({
      txid: sent.result.txid,
      received: change.toString(),
      sent: "100000",
      labels: ["rent"],
      outgoing: true,
    });
    expect(w.balance.confirmed).toBe(change);

    const tx = (await (await fetch(`${h.esploraUrl}/tx/${sent.result.txid}`)).json()) as {
      vin: { sequence: number }[];
      vout: { scriptpubkey_address: string; value: number }[];
      fee: number;
      weight: number;
    };
    expect(tx.vin.every((i) => i.sequence === 0xfffffffd)).toBe(true);
    expect(tx.vout).toContainEqual(expect.objectContaining({ scriptpubkey_address: to, value: 30_000 }));
    expect(tx.vout).toContainEqual(expect.objectContaining({ value: Number(change) }));
    expect(BigInt(tx.fee)).toBe(sent.result.feeSats);
    // The feerate paid is at least the estimate's (2.5 sat/vB on the local world).
    expect(tx.fee / Math.ceil(tx.weight / 4)).toBeGreaterThanOrEqual(2.5);

    expect((await w.run({ _tag: "SyncOnchain" })).events).toEqual([]);
    await h.mine(1);
    const confirmed = await w.run({ _tag: "SyncOnchain" });
    expect(confirmed.events.map((e) => e.type)).toEqual(["onchain.tx_confirmed"]);
    expect(w.balance).toMatchObject({ confirmed: change, unconfirmed: 0n });
  });

  it("resyncs from the log after a restart, and restores from nothing, to the same balance", async () => {
    const before = w.balance;
    const refolded = foldEvents(w.log);
    expect(balanceOf(refolded.onchain)).toEqual(before);
    const fresh = makeOnchainPort(w.mnemonic, "regtest", h.esploraUrl, fetch);
    expect(await Effect.runPromise(fresh.sync(refolded.onchain))).toEqual([]);

    const restored = new TestWallet(w.mnemonic, makeOnchainPort(w.mnemonic, "regtest", h.esploraUrl, fetch));
    const events = await restored.run({ _tag: "SyncOnchain" });
    expect(events.events.length).toBeGreaterThan(0);
    expect(restored.balance).toEqual(before);
    expect(restored.states.onchain.nextIndex.internal).toBe(1);
    expect((await restored.run({ _tag: "SyncOnchain" })).events).toEqual([]);
  });

  it("sweeps everything to one output", async () => {
    const to = h.faucetAddress;
    const estimate = await w.run({ _tag: "EstimateSweepTxFee", address: to });
    expect(estimate.result.amountSats + estimate.result.feeSats).toBe(w.balance.confirmed);
    const swept = await w.run({ _tag: "SweepWallet", address: to, labels: ["moving out"] });
    expect(swept.result).toMatchObject({
      feeSats: estimate.result.feeSats,
      amountSats: estimate.result.amountSats,
    });
    expect(w.balance.confirmed).toBe(0n);
    const tx = (await (await fetch(`${h.esploraUrl}/tx/${swept.result.txid}`)).json()) as {
      vout: { value: number }[];
    };
    expect(tx.vout).toEqual([expect.objectContaining({ value: Number(swept.result.amountSats) })]);
    await h.mine(1);
    await w.run({ _tag: "SyncOnchain" });
    expect(w.balance).toMatchObject({ confirmed: 0n, unconfirmed: 0n });
    expect(await w.fail({ _tag: "SweepWallet", address: to, labels: [] })).toMatchObject({
      _tag: "InsufficientFunds",
    });
  });
  it("asks once more before paying the same address the same amount again within minutes", async () => {
    const mine = await w.run({ _tag: "GetNewAddress", labels: [] });
    await h.faucet(mine.result.address, 100_000n);
    await h.mine(1);
    await w.run({ _tag: "SyncOnchain" });
    const to = h.faucetAddress;
    const first = await w.run({ _tag: "SendToAddress", address: to, amountSats: 20_000n, labels: [] });
    const script = (checkDestination(to, "regtest") as { script: Uint8Array }).script;
    expect(first.events.at(-1)!.payload).toMatchObject({
      paidTo: { script: hex.encode(script), amount: "20000" },
    });

    // The same address and amount: refused, nothing appended, nothing broadcast.
    expect(
      await w.fail({ _tag: "SendToAddress", address: to, amountSats: 20_000n, labels: [] }),
    ).toMatchObject({
      _tag: "RepeatNeedsConfirmation",
      key: "send.repeat_warning",
      values: { amount: "20000", minutes: "1" },
    });
    // Another amount is another payment.
    const other = await w.run({ _tag: "SendToAddress", address: to, amountSats: 21_000n, labels: [] });
    expect(other.result.txid).not.toBe(first.result.txid);
    // Confirmed a second time, it goes.
    const again = await w.run({
      _tag: "SendToAddress",
      address: to,
      amountSats: 20_000n,
      labels: [],
      repeatConfirmed: true,
    });
    expect(again.result.txid).not.toBe(first.result.txid);

    // The window is decided from the log's times: after it, the same payment is a new one.
    const seenAt = w.states.onchain.txs.get(first.result.txid)!.seenAt;
    expect(recentSameSend(w.states.onchain, script, 20_000n, seenAt + 1)).not.toBeNull();
    expect(recentSameSend(w.states.onchain, script, 20_000n, seenAt + REPEAT_WINDOW_MS * 2)).toBeNull();
    // The log folded from scratch decides the same.
    expect(recentSameSend(foldEvents(w.log).onchain, script, 20_000n, seenAt + 1)).not.toBeNull();
  });
});
