import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../../../harness/world";
import { type NewEvent, stamp } from "../../events/make";
import { balanceOf } from "../../projections/balance";
import { foldEvents, initialStates, type States } from "../../projections/index";
import { newMnemonic } from "../keys/mnemonic";
import { GAP_LIMIT } from "./account";
import { makeOnchainPort } from "./live";
import type { OnchainPort } from "./port";

let n = 0;
const stamper = { uuid: () => `s-${++n}`, now: () => 1_700_000_000_000 + n, device: "test" };

/** A port that counts its requests, and the fold of every event it gave. */
const wallet = (h: Harness, mnemonic = newMnemonic()) => {
  const requests: string[] = [];
  const port: OnchainPort = makeOnchainPort(mnemonic, "regtest", h.esploraUrl, fetch, {
    onRequest: (p) => requests.push(p),
  });
  let states: States = initialStates();
  const apply = (events: readonly NewEvent[]) => {
    states = foldEvents(stamp(events, stamper), states);
  };
  return {
    mnemonic,
    port,
    requests,
    get state() {
      return states.onchain;
    },
    apply,
    sync: async () => {
      requests.length = 0;
      const events = await Effect.runPromise(port.sync(states.onchain));
      apply(events);
      return events;
    },
    receive: (index: number) => port.addressAt("external", index),
  };
};

const types = (events: readonly NewEvent[]) => events.map((e) => e.type);

describe("on-chain sync against the local regtest world", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ port: 0 });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("needs two requests when nothing changed, and requests in proportion to used addresses", async () => {
    const w = wallet(h);
    await h.faucet(w.receive(0), 50_000n);
    await h.faucet(w.receive(3), 60_000n);
    await h.mine(1);
    const first = await w.sync();
    expect(types(first)).toEqual([
      "onchain.address_issued",
      "onchain.address_issued",
      "onchain.tx_seen",
      "onchain.tx_confirmed",
      "onchain.tx_seen",
      "onchain.tx_confirmed",
    ]);
    // Tip and mempool, then each keychain up to the gap limit past its last used address, plus two histories.
    expect(w.requests.length).toBe(2 + (3 + 1 + GAP_LIMIT) + GAP_LIMIT + 2);
    expect(await w.sync()).toEqual([]);
    expect(w.requests.length).toBeLessThanOrEqual(3);
  });

  it("finds payments past the gap of the addresses handed out, one gap at a time", async () => {
    const w = wallet(h);
    await h.faucet(w.receive(15), 10_000n);
    await h.faucet(w.receive(30), 20_000n);
    await h.mine(1);
    await w.sync();
    expect(balanceOf(w.state).confirmed).toBe(30_000n);
    expect(w.state.nextIndex.external).toBe(31);
  });

  it("reads an address's whole history across Esplora's pages of 25", async () => {
    const w = wallet(h);
    const address = w.receive(0);
    for (let i = 0; i < 30; i++) {
      await h.faucet(address, 1_000n + BigInt(i));
      if (i % 10 === 9) await h.mine(1);
    }
    const events = await w.sync();
    expect(events.filter((e) => e.type === "onchain.tx_seen")).toHaveLength(30);
    expect(balanceOf(w.state).confirmed).toBe(30n * 1_000n + 435n);
  });

  it("puts a reorganised-out transaction back to unconfirmed, then confirms it in the new block", async () => {
    const w = wallet(h);
    const txid = await h.faucet(w.receive(0), 70_000n);
    const [oldBlock] = await h.mine(1);
    await w.sync();
    expect(w.state.txs.get(txid)?.confirmation?.blockHash).toBe(oldBlock);

    await h.reorg(1);
    const back = await w.sync();
    expect(back.map((e) => [e.type, "txid" in e.payload ? e.payload.txid : null])).toEqual([
      ["onchain.tx_unconfirmed", txid],
    ]);
    expect(balanceOf(w.state)).toMatchObject({ confirmed: 0n, unconfirmed: 70_000n });
    expect(await w.sync()).toEqual([]);

    const [newBlock] = await h.mine(1);
    const again = await w.sync();
    expect(types(again)).toEqual(["onchain.tx_confirmed"]);
    expect(w.state.txs.get(txid)?.confirmation?.blockHash).toBe(newBlock);
    expect(balanceOf(w.state)).toMatchObject({ confirmed: 70_000n, unconfirmed: 0n });
  });

  it("marks a payment dropped when the sender replaces it, naming the replacement", async () => {
    const w = wallet(h);
    const txid = await h.faucet(w.receive(0), 40_000n);
    await w.sync();
    expect(balanceOf(w.state).unconfirmed).toBe(40_000n);
    const replacement = await h.replace(txid);
    const dropped = await w.sync();
    expect(dropped).toEqual([{ type: "onchain.tx_dropped", payload: { txid, replacedBy: replacement } }]);
    expect(balanceOf(w.state)).toMatchObject({ confirmed: 0n, unconfirmed: 0n });
    expect(await w.sync()).toEqual([]);
  });

  it("retries a server that answers 503 or drops the connection, then carries on", async () => {
    let calls = 0;
    const flaky: typeof fetch = (input, init) => {
      calls++;
      if (calls === 1) return Promise.resolve(new Response("busy", { status: 503 }));
      if (calls === 2) return Promise.reject(new TypeError("connection reset"));
      return fetch(input, init);
    };
    const port = makeOnchainPort(newMnemonic(), "regtest", h.esploraUrl, flaky, { backoffMs: 1 });
    expect(await Effect.runPromise(port.sync(initialStates().onchain))).toEqual([]);
    expect(calls).toBeGreaterThan(2);
  });

  it("answers ServerUnavailable when the server cannot be reached", async () => {
    const port = makeOnchainPort(newMnemonic(), "regtest", "http://127.0.0.1:9", fetch, { backoffMs: 1 });
    const err = await Effect.runPromise(Effect.flip(port.sync(initialStates().onchain)));
    expect(err).toMatchObject({ _tag: "ServerUnavailable" });
  });

  describe("a hung Esplora server", () => {
    it("fails the sync in bounded time, and the next sync after it recovers catches up without a restart", async () => {
      const w = wallet(h);
      await h.faucet(w.receive(0), 12_345n);
      await h.mine(1);
      const scope = "hung-sync";
      h.hostility.set("esplora", scope, "hang");
      const port = makeOnchainPort(newMnemonic(), "regtest", h.hostileEsploraUrl(scope), fetch, {
        retries: 1,
        backoffMs: 1,
        limits: { timeoutMs: 300, maxBytes: 1_000_000 },
      });
      const hung = await Effect.runPromise(Effect.result(port.sync(initialStates().onchain)));
      expect(hung._tag).toBe("Failure");
      h.hostility.set("esplora", scope, null);
      // The same port, the same wallet: the server is back, and so is the wallet.
      const same = makeOnchainPort(w.mnemonic, "regtest", h.hostileEsploraUrl(scope), fetch, {
        limits: { timeoutMs: 300, maxBytes: 1_000_000 },
      });
      h.hostility.set("esplora", scope, "hang");
      expect((await Effect.runPromise(Effect.result(same.sync(initialStates().onchain))))._tag).toBe(
        "Failure",
      );
      h.hostility.set("esplora", scope, null);
      const events = await Effect.runPromise(same.sync(initialStates().onchain));
      const states = foldEvents(stamp(events, stamper), initialStates());
      expect(balanceOf(states.onchain).unconfirmed + balanceOf(states.onchain).confirmed).toBe(12_345n);
    }, 180_000);
  });
});
