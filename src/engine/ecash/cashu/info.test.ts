import { describe, expect, it } from "vitest";
import type { FetchFn } from "../../http/bounded";
import { describeMint } from "./info";

/** A mint's answers as recorded bodies (this tests the client's reading of them; the world's mint is read live in src/commands/federations.test.ts). */
const answering =
  (info: unknown): FetchFn =>
  async (input) => {
    const url = String(input);
    const body = url.endsWith("/v1/info")
      ? info
      : { keysets: [{ id: "00ad268c4d1f5826", unit: "sat", active: true }] };
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
});
