/**
 * The world's Cashu mint never makes or loses a sat: random swaps, some balanced, some not, some with a
 * spent or a repeated input, are sent as raw NUT-03 requests built with cashu-ts's blinding primitives.
 * A swap is signed exactly when it is balanced with fresh inputs, and refused otherwise with its NUT code
 * and nothing changed; after every step the proofs held add up to what was minted, all UNSPENT, and every
 * input ever swapped is SPENT (NUT-07).
 *
 * CASHU_RUNS and CASHU_SEED (fast-check's seed) widen or repeat a run.
 */
import {
  blindMessage,
  constructUnblindedSignature,
  hashToCurve,
  type MintKeys,
  pointFromHex,
  verifyDLEQProof,
  Wallet,
} from "@cashu/cashu-ts";
import { hex, utf8 } from "@scure/base";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { powersOfTwo } from "../harness/cashu/mint";
import { type Harness, startHarness } from "../harness/world";
import { decodeBolt11 } from "../src/engine/parse/bolt11";
import { stopAfterAll } from "../harness/stop-after-all";

interface RawProof {
  readonly amount: number;
  readonly id: string;
  readonly secret: string;
  readonly C: string;
}

const RUNS = Number(process.env.CASHU_RUNS ?? 8);
const SEED = Number(process.env.CASHU_SEED ?? 20_261_125);
const FUNDED = 512;

let h: Harness;
let keys: MintKeys;
let held: RawProof[] = [];
const spent: RawProof[] = [];
let signed = 0;
let refused = 0;

const post = async (path: string, body: unknown) => {
  const r = await fetch(`${h.cashu.mintUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
};

const ys = (proofs: readonly RawProof[]) => proofs.map((p) => hashToCurve(utf8.decode(p.secret)).toHex(true));
const statesOf = async (proofs: readonly RawProof[]) =>
  ((await post("/v1/checkstate", { Ys: ys(proofs) })).json.states as { state: string }[]).map((s) => s.state);

beforeAll(async () => {
  h = await startHarness({ port: 0 });
  const payer = await h.payer();
  const wallet = new Wallet(h.cashu.mintUrl, { unit: "sat" });
  await wallet.loadMint();
  const quote = await wallet.createMintQuoteBolt11(FUNDED);
  const hash = decodeBolt11(quote.request)!.paymentHash;
  expect((await payer.node.payInvoice(quote.request, 1_000_000n)).status).toBe("succeeded");
  await h.lightning.waitFor((e) => e.type === "payment_received" && e.paymentHash === hash);
  const proofs = await wallet.mintProofsBolt11(FUNDED, quote.quote, undefined, {
    type: "random",
    denominations: Array.from({ length: 16 }, () => 32),
  });
  held = proofs.map((p) => ({ amount: p.amount.toNumber(), id: p.id, secret: p.secret, C: p.C }));
  keys = ((await (await fetch(`${h.cashu.mintUrl}/v1/keys`)).json()) as { keysets: MintKeys[] }).keysets[0]!;
}, 180_000);

stopAfterAll(() => [h]);

const step = fc.record({
  /** Which held proofs go in (indices modulo what is held; at least one). */
  picks: fc.uniqueArray(fc.nat({ max: 63 }), { minLength: 1, maxLength: 4 }),
  /** What the outputs add up to, against the inputs. */
  delta: fc.constantFrom(0, 0, 0, -1, 1, -32),
  /** A spent proof, or one of the inputs a second time, smuggled in. */
  extra: fc.constantFrom("none", "none", "none", "spent", "repeat"),
  /** How the outputs are split: powers of two, or that split with its largest piece halved. */
  halve: fc.boolean(),
});

describe("the world's Cashu mint ledger", () => {
  it("signs exactly the balanced swaps of fresh proofs, and the proofs held always add up to what was minted", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 4 }), async (steps) => {
        for (const s of steps) {
          const chosen = [...new Set(s.picks.map((i) => i % held.length))].map((i) => held[i]!);
          const inputs = [...chosen];
          if (s.extra === "spent" && spent.length > 0) inputs.push(spent[0]!);
          if (s.extra === "repeat") inputs.push(chosen[0]!);
          const target = chosen.reduce((sum, p) => sum + p.amount, 0) + s.delta;
          let amounts = powersOfTwo(Math.max(target, 1));
          if (s.halve) {
            const big = amounts.pop()!;
            amounts = big > 1 ? [...amounts, big / 2, big / 2] : [...amounts, big];
          }
          const blinded = amounts.map((amount) => {
            const secret = hex.encode(crypto.getRandomValues(new Uint8Array(32)));
            const { B_, r } = blindMessage(utf8.decode(secret));
            return { amount, secret, B_, r };
          });
          const outputs = blinded.map((b) => ({ amount: b.amount, id: keys.id, B_: b.B_.toHex(true) }));
          const r = await post("/v1/swap", { inputs, outputs });

          const clean = s.extra === "none" || (s.extra === "spent" && spent.length === 0);
          const balanced = s.delta === 0 && target > 0;
          if (clean && balanced) {
            expect(r.status).toBe(200);
            signed++;
            const sigs = r.json.signatures as {
              id: string;
              amount: number;
              C_: string;
              dleq: { e: string; s: string };
            }[];
            expect(sigs.map((x) => x.amount)).toEqual(amounts);
            const fresh = sigs.map((sig, i) => {
              const b = blinded[i]!;
              const K = pointFromHex(keys.keys[String(sig.amount)]!);
              const C_ = pointFromHex(sig.C_);
              const dleq = { e: hex.decode(sig.dleq.e), s: hex.decode(sig.dleq.s) };
              expect(verifyDLEQProof(dleq, b.B_, C_, K)).toBe(true);
              const { C } = constructUnblindedSignature({ id: sig.id, C_ }, b.r, utf8.decode(b.secret), K);
              return { amount: sig.amount, id: sig.id, secret: b.secret, C: C.toHex(true) };
            });
            const gone = new Set(chosen.map((p) => p.secret));
            held = [...held.filter((p) => !gone.has(p.secret)), ...fresh];
            spent.push(...chosen);
          } else {
            expect(r.status).toBe(400);
            refused++;
            const expected = !clean ? [11001, 11007] : [11005];
            expect(expected).toContain(r.json.code);
          }
          expect(held.reduce((sum, p) => sum + p.amount, 0)).toBe(FUNDED);
          const books = (await (await fetch(`${h.cashu.mintUrl}/admin/ledger`)).json()) as {
            outstanding: number;
          };
          expect(books.outstanding).toBe(FUNDED);
          expect(new Set(await statesOf(held))).toEqual(new Set(["UNSPENT"]));
          if (spent.length > 0) expect(new Set(await statesOf(spent))).toEqual(new Set(["SPENT"]));
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // Both sides of the property came up.
    expect(signed).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  }, 600_000);
});
