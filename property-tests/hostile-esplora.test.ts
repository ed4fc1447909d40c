/**
 * An Esplora server that lies, floods or hangs: whatever sequence of answers it gives, the on-chain wallet
 * never shows a negative balance or one above 21 million BTC, and never produces an event its own import
 * would refuse (so its state export always imports). The server is the local world's real API; each answer
 * passes through a fuzzer that fast-check drives (honest, values rewritten, cut in half, an error status, or
 * no answer at all).
 */
import { Effect, Result } from "effect";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../harness/world";
import { makeOnchainPort } from "../src/engine/onchain/live";
import { newMnemonic } from "../src/engine/keys/mnemonic";
import { stamp } from "../src/events/make";
import { validateEvent } from "../src/events/validate";
import { MAX_MONEY_SATS } from "../src/money";
import { balanceOf } from "../src/projections/balance";
import { foldEvents, initialStates } from "../src/projections/index";
import { stopAfterAll } from "../harness/stop-after-all";

let h: Harness;
const mnemonic = newMnemonic();
/** The balance an honest server gives a wallet that never met a liar. */
let truth: ReturnType<typeof balanceOf>;

beforeAll(async () => {
  h = await startHarness({ port: 0 });
  // Real history for the fuzzer to twist: two payments in, one confirmed.
  const probe = makeOnchainPort(mnemonic, "regtest", h.esploraUrl);
  await h.faucet(probe.addressAt("external", 0), 150_000n);
  await h.mine(1);
  await h.faucet(probe.addressAt("external", 1), 20_000n);
  const fresh = makeOnchainPort(mnemonic, "regtest", h.esploraUrl);
  truth = balanceOf(
    foldEvents(stamp(await Effect.runPromise(fresh.sync(initialStates().onchain)), stamper)).onchain,
  );
  expect(truth).toMatchObject({ confirmed: 150_000n, unconfirmed: 20_000n });
}, 180_000);
stopAfterAll(() => [h]);

type Twist =
  | { kind: "honest" }
  | { kind: "values"; value: number }
  | { kind: "cut" }
  | { kind: "status"; status: number }
  | { kind: "hang" };

const twist: fc.Arbitrary<Twist> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: "honest" as const }) },
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        fc.integer({ min: -1e9, max: 1e9 }),
        fc.constantFrom(-99_400_383, 9e15, 2.1e15, 2.1e15 + 1, 0.5, Number.MAX_SAFE_INTEGER, 1e300),
      )
      .map((value) => ({ kind: "values" as const, value })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "cut" as const }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(404, 429, 500).map((status) => ({ kind: "status" as const, status })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "hang" as const }) },
);

const rewrite = (json: unknown, value: number): unknown => {
  if (Array.isArray(json)) return json.map((x) => rewrite(x, value));
  if (json && typeof json === "object")
    return Object.fromEntries(
      Object.entries(json).map(([k, v]) => [
        k,
        typeof v === "number" && /value|_sum|fee/.test(k) ? value : rewrite(v, value),
      ]),
    );
  return json;
};

/** The world's answers, each twisted by the next step of `plan` (honest once the plan runs out). */
const fuzzedFetch = (plan: readonly Twist[]): typeof fetch => {
  let step = 0;
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const t = plan[step++] ?? { kind: "honest" };
    if (t.kind === "hang")
      return new Promise<Response>((_, reject) =>
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason), { once: true }),
      );
    if (t.kind === "status") return new Response("no", { status: t.status });
    const honest = await fetch(input, init);
    const text = await honest.text();
    if (t.kind === "cut")
      return new Response(text.slice(0, Math.floor(text.length / 2)), { status: honest.status });
    if (t.kind === "values") {
      try {
        return new Response(JSON.stringify(rewrite(JSON.parse(text), t.value)), { status: honest.status });
      } catch {
        return new Response(text, { status: honest.status });
      }
    }
    return new Response(text, { status: honest.status });
  }) as typeof fetch;
};

let n = 0;
const stamper = { uuid: () => `h-${++n}`, now: () => 1_700_000_000_000 + n, device: "fuzz" };

describe("an Esplora server that lies", () => {
  it("never yields a negative balance, one above 21M BTC, or an event the import would refuse", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(twist, { maxLength: 40 }), { minLength: 1, maxLength: 3 }),
        async (syncs) => {
          let states = initialStates();
          for (const plan of syncs) {
            const port = makeOnchainPort(mnemonic, "regtest", h.esploraUrl, fuzzedFetch(plan), {
              retries: 1,
              backoffMs: 1,
              limits: { timeoutMs: 150, maxBytes: 1_000_000 },
            });
            const synced = await Effect.runPromise(Effect.result(port.sync(states.onchain)));
            if (!Result.isSuccess(synced)) continue;
            const events = stamp(synced.success, stamper);
            for (const e of events)
              expect(typeof validateEvent(JSON.parse(JSON.stringify(e, bigints)))).toBe("object");
            states = foldEvents(events, states);
            const b = balanceOf(states.onchain);
            for (const v of [b.confirmed, b.unconfirmed, b.confirmed + b.unconfirmed]) {
              expect(v >= 0n).toBe(true);
              expect(v <= MAX_MONEY_SATS).toBe(true);
            }
          }
          // An honest server afterwards brings the wallet back to the truth, whatever it was told before.
          const honest = makeOnchainPort(mnemonic, "regtest", h.esploraUrl);
          states = foldEvents(stamp(await Effect.runPromise(honest.sync(states.onchain)), stamper), states);
          expect(balanceOf(states.onchain)).toEqual(truth);
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 25) },
    );
  }, 240_000);
});

const bigints = (_k: string, v: unknown) => (typeof v === "bigint" ? v.toString() : v);
