import { describe, expect, it } from "vitest";
import type { FetchFn } from "../../http/bounded";
import { EcashFailure, MAX_INPUT_FEE_PPK } from "../port";
import { describeMint } from "./info";

/** A mint's answers as recorded bodies (this tests the client's reading of them; the world's mint is read live in src/commands/ecash/federations.test.ts). */
const answering =
  (info: unknown, keysets: unknown[] = [{ id: "00ad268c4d1f5826", unit: "sat", active: true }]): FetchFn =>
  async (input) => {
    const url = String(input);
    const body = url.endsWith("/v1/info") ? info : { keysets };
    return new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });
  };

const URL_ = "https://mint.example/cashu";

describe("reading a mint's info", () => {
  it("reads its name, welcome, message of the day, end date and the most it mints at once", async () => {
    const d = await describeMint(
      answering({
        name: " Mint ",
        description: "Hello",
        motd: " Maintenance tonight ",
        end_of_service: 2_000_000_000,
        nuts: {
          "4": {
            methods: [
              { method: "bolt12", unit: "sat", max_amount: 5 },
              { method: "bolt11", unit: "usd", max_amount: 7 },
              { method: "bolt11", unit: "sat", min_amount: 1, max_amount: 250_000 },
            ],
          },
        },
      }),
      URL_,
    );
    expect(d).toEqual({
      url: URL_,
      name: "Mint",
      welcome: "Hello",
      motd: "Maintenance tonight",
      expiresAt: 2_000_000_000,
      maxReceiveSats: 250_000n,
    });
  });

  it("reads an unsaid or malformed limit as none, and a missing name as the host", async () => {
    for (const nuts of [
      undefined,
      {},
      { "4": "many" },
      { "4": { methods: [{ method: "bolt11", unit: "sat" }] } },
      { "4": { methods: [{ method: "bolt11", unit: "sat", max_amount: -1 }] } },
      { "4": { methods: [{ method: "bolt11", unit: "sat", max_amount: 3_000_000_000_000_000 }] } },
    ]) {
      const d = await describeMint(answering({ nuts }), URL_);
      expect(d.maxReceiveSats).toBeNull();
      expect(d.name).toBe("mint.example");
      expect(d.motd).toBeNull();
    }
  });

  it("refuses an info that is not a mint's", async () => {
    await expect(describeMint(answering({ name: 42 }), URL_)).rejects.toThrow();
    await expect(describeMint(answering({ motd: "x".repeat(5000) }), URL_)).rejects.toThrow();
  });

  it("refuses a mint charging more than one sat per coin spent, in any of its keysets in sats", async () => {
    const keyset = (input_fee_ppk: number, active = true, unit = "sat") => ({
      id: "00ad268c4d1f5826",
      unit,
      active,
      input_fee_ppk,
    });
    expect(MAX_INPUT_FEE_PPK).toBe(1_000);
    // At the bound, and a keyset of another unit charging more: joined.
    await expect(
      describeMint(answering({}, [keyset(1_000), keyset(50_000, true, "usd")]), URL_),
    ).resolves.toMatchObject({
      url: URL_,
    });
    for (const keysets of [[keyset(1_001)], [keyset(0), keyset(5_000, false)], [keyset(2 ** 40)]]) {
      const refused = await describeMint(answering({}, keysets), URL_).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(EcashFailure);
      expect(refused).toMatchObject({ key: "federations.error_input_fee", values: { limit: "1" } });
    }
    const five = await describeMint(answering({}, [keyset(5_000)]), URL_).catch((e: unknown) => e);
    expect(five).toMatchObject({ values: { fee: "5", limit: "1" } });
  });
});
