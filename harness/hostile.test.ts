import { randomBytes } from "node:crypto";
import { hex } from "@scure/base";
import { Transaction } from "@scure/btc-signer";
import { beforeAll, describe, expect, it } from "vitest";
import { postJson } from "./http";
import { type Harness, startHarness } from "./world";
import { stopAfterAll } from "./stop-after-all";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ port: 0 });
}, 180_000);
stopAfterAll(() => [h]);

const get = (path: string, init?: RequestInit) => fetch(`${h.esploraUrl}${path}`, init);

describe("the world's hostile modes", () => {
  it("lie only under their own scope: the honest API and other scopes answer truly", async () => {
    await postJson(h.esploraUrl, "/hostile", {
      service: "esplora",
      scope: "spike",
      mode: "fee-spike",
      rate: 5000,
    });
    try {
      expect(
        ((await (await get("/hostile/spike/fee-estimates")).json()) as Record<string, number>)["3"],
      ).toBe(5000);
      expect(((await (await get("/fee-estimates")).json()) as Record<string, number>)["3"]).toBeLessThan(10);
      expect(
        ((await (await get("/hostile/other/fee-estimates")).json()) as Record<string, number>)["3"],
      ).toBeLessThan(10);
    } finally {
      await postJson(h.esploraUrl, "/hostile", { service: "esplora", scope: "spike", mode: null });
    }
    expect(
      ((await (await get("/hostile/spike/fee-estimates")).json()) as Record<string, number>)["3"],
    ).toBeLessThan(10);
  });

  it("hangs, cuts JSON, writes negative values and absurd prices when told", async () => {
    const set = (service: string, mode: string | null, extra = {}) =>
      postJson(h.esploraUrl, "/hostile", { service, scope: "t", mode, ...extra });
    await set("esplora", "hang");
    await expect(get("/hostile/t/blocks/tip/height", { signal: AbortSignal.timeout(300) })).rejects.toThrow();
    await set("esplora", "malformed-json");
    const cut = await (await get("/hostile/t/fee-estimates")).text();
    expect(() => JSON.parse(cut)).toThrow();
    await set("esplora", "negative-values");
    const stats = (await (await get(`/hostile/t/address/${h.faucetAddress}`)).json()) as {
      chain_stats: { funded_txo_sum: number };
    };
    expect(stats.chain_stats.funded_txo_sum).toBeLessThan(0);
    await set("esplora", null);
    await set("price", "absurd", { value: 1e-300 });
    expect(await (await get("/hostile/t/api/v1/price/USD")).json()).toEqual({
      currency: "USD",
      price: 1e-300,
    });
    await set("price", null);
  });

  it("refuses unknown services, modes and scopes", async () => {
    await expect(
      postJson(h.esploraUrl, "/hostile", { service: "bank", scope: "t", mode: "hang" }),
    ).rejects.toThrow(/400/);
    await expect(
      postJson(h.esploraUrl, "/hostile", { service: "esplora", scope: "t", mode: "nice" }),
    ).rejects.toThrow(/400/);
    await expect(
      postJson(h.esploraUrl, "/hostile", { service: "esplora", scope: "T T", mode: null }),
    ).rejects.toThrow(/400/);
  });
});

describe("POST /tx", () => {
  it("refuses a transaction whose inputs are missing, as a real node does", async () => {
    const tx = new Transaction({ allowUnknownOutputs: true });
    tx.addInput({ txid: randomBytes(32), index: 0 });
    tx.addOutput({ script: hex.decode(`0014${"11".repeat(20)}`), amount: 10_000n });
    const r = await get("/tx", { method: "POST", body: hex.encode(tx.unsignedTx) });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain("bad-txns-inputs-missingorspent");
  });
});
