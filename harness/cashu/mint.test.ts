/**
 * The world's Cashu mints driven by an outside client: cashu-ts's own `Wallet` in Node, over HTTP, with
 * real lightning payments by the world's nodes. Mint, swap, send and receive between two wallets, melt
 * with fee return, state checks, double spends, restore from a seed, transfer between the two mints, the
 * end-of-service date, and bad input that never takes the mint down.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  getEncodedToken,
  hasValidDleq,
  type MintKeys,
  MintOperationError,
  type Proof,
  sumProofs,
  Wallet,
} from "@cashu/cashu-ts";
import { hex } from "@scure/base";
import { mnemonicToSeedSync } from "@scure/bip39";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeBolt11 } from "../../src/engine/parse/bolt11";
import type { HarnessNode } from "../lightning";
import { until } from "../until";
import { CashuMint } from "./mint";
import { MINT_A, worldMintLightning } from "./service";
import { type Harness, startHarness } from "../world";

const total = (proofs: readonly Pick<Proof, "amount">[]) => sumProofs([...proofs]).toNumber();

/** The mint's refusal: cashu-ts's MintOperationError with its NUT code. */
const refusal = async (p: Promise<unknown>): Promise<number> => {
  try {
    await p;
  } catch (e) {
    if (e instanceof MintOperationError) return e.code;
    throw e;
  }
  throw new Error("The mint accepted what it should have refused");
};

describe("the world's Cashu mints, driven by cashu-ts", () => {
  let h: Harness;
  let payer: HarnessNode;
  let keys: MintKeys;

  const wallet = async (url: string, mnemonic?: string) => {
    const w = new Wallet(url, {
      unit: "sat",
      requireSigDleq: true,
      ...(mnemonic ? { bip39seed: mnemonicToSeedSync(mnemonic) } : {}),
    });
    await w.loadMint();
    return w;
  };

  /** Mints `amount` sats at `w`'s mint, the quote's invoice paid by the payer node over lightning. */
  const fund = async (w: Wallet, amount: number): Promise<Proof[]> => {
    const quote = await w.createMintQuoteBolt11(amount);
    expect(quote.state).toBe("UNPAID");
    const hash = decodeBolt11(quote.request)!.paymentHash;
    const paid = await payer.node.payInvoice(quote.request, 1_000_000n);
    expect(paid.status).toBe("succeeded");
    await h.lightning.waitFor((e) => e.type === "payment_received" && e.paymentHash === hash);
    expect((await w.checkMintQuoteBolt11(quote.quote)).state).toBe("PAID");
    return w.mintProofsBolt11(amount, quote.quote);
  };

  /**
   * A wallet at the world's mint holding 60,000 sats paid in by the payer, once the world's node can pay the
   * payer `sats` back over their channel (a melt's amount and fee reserve).
   */
  const fundedToPay = async (sats: bigint) => {
    const w = await wallet(h.cashu.mintUrl);
    const proofs = await fund(w, 60_000);
    await until("the world's node to be able to pay the payer", () =>
      h.lightning.node.channels().some((c) => c.peer === payer.pubkey && c.outboundSats >= sats),
    );
    return { w, proofs };
  };

  const books = async () =>
    (await (await fetch(`${h.cashu.mintUrl}/admin/ledger`)).json()) as {
      melted: number;
      fees_paid: number;
      unreturned: number;
    };

  const post = async (url: string, body: string) => {
    const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
    return { status: r.status, json: (await r.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    h = await startHarness({ port: 0 });
    payer = await h.payer();
    keys = ((await (await fetch(`${h.cashu.mintUrl}/v1/keys`)).json()) as { keysets: MintKeys[] })
      .keysets[0]!;
  }, 180_000);
  afterAll(async () => {
    await h?.stop();
  });

  it("describes itself (NUT-06) and serves one keyset whose id matches its keys", async () => {
    const w = await wallet(h.cashu.mintUrl);
    const info = w.getMintInfo();
    expect(info.isSupported(7).supported).toBe(true);
    expect(info.isSupported(12).supported).toBe(true);
    expect(w.keysetId).toBe(h.cashu.mint.keysetId);
    expect(w.getKeyset().verify()).toBe(true);
    const raw = await (await fetch(`${h.cashu.mintUrl}/v1/info`)).json();
    expect(raw).toMatchObject({
      name: expect.any(String),
      pubkey: expect.stringMatching(/^0[23][0-9a-f]{64}$/),
    });
    expect(raw.end_of_service).toBeNull();
    const other = await wallet(h.cashu.mint2Url);
    expect(other.keysetId).not.toBe(w.keysetId);
  }, 60_000);

  it("mints tokens once their invoice is paid, each with a DLEQ proof cashu-ts verifies", async () => {
    const w = await wallet(h.cashu.mintUrl);
    const unpaid = await w.createMintQuoteBolt11(1_000);
    expect(await refusal(w.mintProofsBolt11(1_000, unpaid.quote))).toBe(20001);

    const proofs = await fund(w, 100_000);
    expect(total(proofs)).toBe(100_000);
    for (const p of proofs) {
      expect(Math.log2(p.amount.toNumber()) % 1).toBe(0);
      expect(hasValidDleq(p, keys, { require: true })).toBe(true);
    }
    // A proof whose DLEQ was changed no longer verifies.
    const forged = { ...proofs[0]!, dleq: { ...proofs[0]!.dleq!, s: "11".repeat(32) } };
    expect(hasValidDleq(forged, keys)).toBe(false);
  }, 120_000);

  it("issues a paid quote only once", async () => {
    const w = await wallet(h.cashu.mintUrl);
    const quote = await w.createMintQuoteBolt11(64);
    expect((await payer.node.payInvoice(quote.request, 1_000_000n)).status).toBe("succeeded");
    const hash = decodeBolt11(quote.request)!.paymentHash;
    await h.lightning.waitFor((e) => e.type === "payment_received" && e.paymentHash === hash);
    expect(total(await w.mintProofsBolt11(64, quote.quote))).toBe(64);
    expect(await refusal(w.mintProofsBolt11(64, quote.quote))).toBe(20002);
    expect((await w.checkMintQuoteBolt11(quote.quote)).state).toBe("ISSUED");
  }, 120_000);

  it("sends a token from one wallet to another; the spent proofs are SPENT and a second redeem is refused", async () => {
    const alice = await wallet(h.cashu.mintUrl);
    const bob = await wallet(h.cashu.mintUrl);
    const proofs = await fund(alice, 1_000);
    const { keep, send } = await alice.send(300, proofs);
    expect(total(send)).toBe(300);
    expect(total(keep)).toBe(700);
    const token = getEncodedToken({ mint: h.cashu.mintUrl, proofs: send, unit: "sat" });
    expect(token).toMatch(/^cashuB/);

    const received = await bob.receive(token);
    expect(total(received)).toBe(300);
    for (const p of received) expect(hasValidDleq(p, keys, { require: true })).toBe(true);
    // The same token again: a double spend.
    expect(await refusal(bob.receive(token))).toBe(11001);

    const states = await alice.checkProofsStates([...send, ...keep]);
    expect(states.slice(0, send.length).every((s) => s.state === "SPENT")).toBe(true);
    expect(states.slice(send.length).every((s) => s.state === "UNSPENT")).toBe(true);
    // Of the minted proofs, those `send` did not keep as they were were swapped away.
    const kept = new Set(keep.map((p) => p.secret));
    const original = await alice.checkProofsStates(proofs);
    expect(original.map((s) => s.state)).toEqual(
      proofs.map((p) => (kept.has(p.secret) ? "UNSPENT" : "SPENT")),
    );
  }, 120_000);

  it("melts to pay another node's invoice, returning the unused fee reserve as change (NUT-08)", async () => {
    // The world's node pays over its channel from the payer: what the payer paid in, beyond the reserve.
    const { w, proofs } = await fundedToPay(2_020n);
    const invoice = payer.node.createInvoice(2_000_000n, "paid from ecash");
    const quote = await w.createMeltQuoteBolt11(invoice.bolt11);
    expect(quote.amount.toNumber()).toBe(2_000);
    expect(quote.fee_reserve.toNumber()).toBe(20);
    const { keep, send } = await w.send(2_020, proofs, { includeFees: true });
    const before = await books();
    const melted = await w.meltProofsBolt11(quote, send);
    expect(melted.quote.state).toBe("PAID");
    const preimage = melted.quote.payment_preimage!;
    expect(createHash("sha256").update(hex.decode(preimage)).digest("hex")).toBe(invoice.paymentHash);
    await payer.waitFor((e) => e.type === "payment_received" && e.paymentHash === invoice.paymentHash);
    // A direct channel costs no routing fee: the whole reserve comes back, in proofs that verify.
    expect(total(melted.change)).toBe(20);
    for (const p of melted.change) expect(hasValidDleq(p, keys, { require: true })).toBe(true);
    expect((await w.checkProofsStates(send)).every((s) => s.state === "SPENT")).toBe(true);
    expect((await w.checkMeltQuoteBolt11(quote.quote)).state).toBe("PAID");
    // The change is spendable, and so is what was kept: 60,000 - 2,000.
    expect(total(await w.receive([...keep, ...melted.change]))).toBe(58_000);
    // Paying the same quote again is refused.
    expect(await refusal(w.meltProofsBolt11(quote, keep))).toBe(20006);
    // The mint's books took the amount paid, no routing fee, and nothing it did not give back.
    const after = await books();
    expect(after.melted - before.melted).toBe(2_000);
    expect(after.fees_paid - before.fees_paid).toBe(0);
    expect(after.unreturned - before.unreturned).toBe(0);
  }, 120_000);

  it("keeps the inputs PENDING while the payment is in flight (NUT-07), then settles the melt", async () => {
    const { w, proofs } = await fundedToPay(1_010n);
    // The payer holds the payment until it is given the preimage.
    const preimage = randomBytes(32);
    const paymentHash = createHash("sha256").update(preimage).digest();
    payer.hold.handler = (hash) => hash === hex.encode(paymentHash);
    try {
      const invoice = payer.node.createInvoice(1_000_000n, "held", 3_600, paymentHash);
      const quote = await w.createMeltQuoteBolt11(invoice.bolt11);
      const { keep, send } = await w.send(1_010, proofs, { includeFees: true });
      const melting = w.meltProofsBolt11(quote, send);
      await until("the inputs to be pending", async () =>
        (await w.checkProofsStates(send)).every((s) => s.state === "PENDING"),
      );
      expect((await w.checkMeltQuoteBolt11(quote.quote)).state).toBe("PENDING");
      expect(await refusal(w.meltProofsBolt11(quote, send))).toBe(20005);
      const [p] = send;
      const swap = await post(
        `${h.cashu.mintUrl}/v1/swap`,
        JSON.stringify({
          inputs: [{ amount: p!.amount.toNumber(), id: p!.id, secret: p!.secret, C: p!.C }],
          outputs: [{ amount: p!.amount.toNumber(), id: p!.id, B_: keys.keys["1"] }],
        }),
      );
      expect(swap.json.code).toBe(11002);
      expect((await w.checkProofsStates(keep)).every((s) => s.state === "UNSPENT")).toBe(true);

      payer.node.claim(hex.encode(preimage));
      const melted = await melting;
      expect(melted.quote.state).toBe("PAID");
      expect(melted.quote.payment_preimage).toBe(hex.encode(preimage));
      expect(total(melted.change)).toBe(10);
      expect((await w.checkProofsStates(send)).every((s) => s.state === "SPENT")).toBe(true);
    } finally {
      payer.hold.handler = null;
    }
  }, 120_000);

  it("gives the proofs back when the lightning payment fails", async () => {
    const w = await wallet(h.cashu.mintUrl);
    const proofs = await fund(w, 500);
    const island = await h.startNode(); // no channels: no route to it
    const invoice = island.node.createInvoice(100_000n, "unreachable");
    const quote = await w.createMeltQuoteBolt11(invoice.bolt11);
    const { send } = await w.send(quote.amount.add(quote.fee_reserve), proofs, { includeFees: true });
    expect(await refusal(w.meltProofsBolt11(quote, send))).toBe(20004);
    expect((await w.checkProofsStates(send)).every((s) => s.state === "UNSPENT")).toBe(true);
    expect((await w.checkMeltQuoteBolt11(quote.quote)).state).toBe("UNPAID");
  }, 120_000);

  it("moves ecash from mint A to mint B: B's quote is paid by a melt at A, settled between the mints", async () => {
    const a = await wallet(h.cashu.mintUrl);
    const b = await wallet(h.cashu.mint2Url);
    const proofs = await fund(a, 1_000);
    const mintQuote = await b.createMintQuoteBolt11(600);
    const meltQuote = await a.createMeltQuoteBolt11(mintQuote.request);
    expect(meltQuote.fee_reserve.toNumber()).toBe(0);
    const { send } = await a.send(600, proofs, { includeFees: true });
    const melted = await a.meltProofsBolt11(meltQuote, send);
    expect(melted.quote.state).toBe("PAID");
    expect((await b.checkMintQuoteBolt11(mintQuote.quote)).state).toBe("PAID");
    const moved = await b.mintProofsBolt11(600, mintQuote.quote);
    expect(total(moved)).toBe(600);
    // Mint B's proofs are B's: mint A does not know their keyset.
    const [p] = moved;
    const output = { amount: p!.amount.toNumber(), id: a.keysetId, B_: p!.C };
    const proof = { amount: p!.amount.toNumber(), id: p!.id, secret: p!.secret, C: p!.C };
    const r = await post(
      `${h.cashu.mintUrl}/v1/swap`,
      JSON.stringify({ inputs: [proof], outputs: [output] }),
    );
    expect(r.json.code).toBe(12001);
  }, 120_000);

  it("restores a seeded wallet's proofs from the mint (NUT-09 with NUT-13 secrets)", async () => {
    const mnemonic = "half depart obvious quality work element tank gorilla view sugar picture humble";
    const carol = await wallet(h.cashu.mintUrl, mnemonic);
    const bob = await wallet(h.cashu.mintUrl);
    const proofs = await fund(carol, 1_000);
    const { keep, send } = await carol.send(300, proofs);
    await bob.receive(getEncodedToken({ mint: h.cashu.mintUrl, proofs: send }));

    // A fresh wallet from the same words finds every proof Carol was given, spent or not.
    const again = await wallet(h.cashu.mintUrl, mnemonic);
    const { proofs: restored, lastCounterWithSignature } = await again.batchRestore();
    expect(lastCounterWithSignature).toBeGreaterThan(0);
    const { unspent, spent } = await again.groupProofsByState(restored);
    expect(total(unspent)).toBe(total(keep));
    expect(new Set(unspent.map((p) => p.secret))).toEqual(new Set(keep.map((p) => p.secret)));
    const spentSecrets = new Set(spent.map((p) => p.secret));
    expect(send.every((p) => spentSecrets.has(p.secret))).toBe(true);
    expect(total(unspent) + total(spent)).toBeGreaterThanOrEqual(1_000 + 300);
    for (const p of unspent) expect(hasValidDleq(p, keys, { require: true })).toBe(true);
  }, 120_000);

  it("charges NUT-02 input fees exactly as cashu-ts reckons them", async () => {
    // A third mint on the world's node, with a fee of 0.5 sat per input, on its own port.
    const ln = worldMintLightning(h.lightning, () => h.payer());
    const feeMint = new CashuMint(
      { ...MINT_A, name: "Fee mint", seed: new Uint8Array(32).fill(9), inputFeePpk: 500 },
      ln,
    );
    const server = createServer(async (req, res) => {
      let body = "";
      for await (const chunk of req) body += chunk;
      const r = await feeMint.handle(req.method ?? "GET", (req.url ?? "/").split("?")[0]!, body);
      res.writeHead(r.status, { "content-type": "application/json" });
      res.end(JSON.stringify(r.json));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const alice = await wallet(url);
      const bob = await wallet(url);
      expect(alice.getKeyset().fee).toBe(500);
      const proofs = await fund(alice, 1_000);
      const { keep, send } = await alice.send(300, proofs, { includeFees: true });
      // The token carries what bob's swap will cost him.
      const bobFee = alice.getFeesForProofs(send).toNumber();
      expect(total(send)).toBe(300 + bobFee);
      const received = await bob.receive(getEncodedToken({ mint: url, proofs: send }));
      expect(total(received)).toBe(300);
      // Alice's own swap paid for its inputs too: what both hold is what was minted less the fees.
      const ledger = feeMint.ledger();
      expect(ledger.input_fees).toBeGreaterThan(0);
      expect(total(keep) + total(received)).toBe(1_000 - ledger.input_fees);
      expect(ledger.outstanding).toBe(total(keep) + total(received));
      // A swap that forgets the fee is unbalanced.
      const [p] = received;
      const r = await post(
        `${url}/v1/swap`,
        JSON.stringify({
          inputs: [{ amount: p!.amount.toNumber(), id: p!.id, secret: p!.secret, C: p!.C }],
          outputs: [{ amount: p!.amount.toNumber(), id: p!.id, B_: keys.keys["1"] }],
        }),
      );
      expect(r.json.code).toBe(11005);
    } finally {
      ln.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 120_000);

  describe("lying under /hostile/<scope>", () => {
    const hostile = async (scope: string, mode: string | null, options: Record<string, unknown> = {}) => {
      const r = await post(
        `${h.esploraUrl}/hostile`,
        JSON.stringify({ service: "cashu", scope, mode, ...options }),
      );
      expect(r.status).toBe(200);
      return `${h.cashu.mintUrl}/hostile/${scope}`;
    };

    it("a broken or missing DLEQ proof is refused by cashu-ts, and the outputs come back from the honest mint", async () => {
      const mnemonic =
        "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
      const liar = await wallet(await hostile("dleq", "bad-dleq"), mnemonic);
      const quote = await liar.createMintQuoteBolt11(32);
      expect((await payer.node.payInvoice(quote.request, 1_000_000n)).status).toBe("succeeded");
      const hash = decodeBolt11(quote.request)!.paymentHash;
      await h.lightning.waitFor((e) => e.type === "payment_received" && e.paymentHash === hash);
      await expect(liar.mintProofsBolt11(32, quote.quote)).rejects.toThrow(/DLEQ verification failed/);
      // The mint did sign: the same seed restores the proofs from the honest URL, with good DLEQ proofs.
      const honest = await wallet(h.cashu.mintUrl, mnemonic);
      const { proofs } = await honest.restore(0, 5);
      expect(total(proofs)).toBe(32);
      for (const p of proofs) expect(hasValidDleq(p, keys, { require: true })).toBe(true);

      const silent = await wallet(await hostile("nodleq", "no-dleq"));
      const q2 = await silent.createMintQuoteBolt11(8);
      expect((await payer.node.payInvoice(q2.request, 1_000_000n)).status).toBe("succeeded");
      const hash2 = decodeBolt11(q2.request)!.paymentHash;
      await h.lightning.waitFor((e) => e.type === "payment_received" && e.paymentHash === hash2);
      await expect(silent.mintProofsBolt11(8, q2.quote)).rejects.toThrow(/without DLEQ/);
    }, 120_000);

    it("a melt whose answer never comes has its outcome in the quote and the proof states (NUT-05, NUT-07)", async () => {
      const { w, proofs } = await fundedToPay(1_010n);
      const mute = await wallet(await hostile("mute", "melt-no-answer"));
      const invoice = payer.node.createInvoice(1_000_000n, "answer lost");
      const quote = await mute.createMeltQuoteBolt11(invoice.bolt11);
      const { send } = await w.send(quote.amount.add(quote.fee_reserve), proofs, { includeFees: true });
      const lost = mute.meltProofsBolt11(quote, send);
      lost.catch(() => {});
      await payer.waitFor((e) => e.type === "payment_received" && e.paymentHash === invoice.paymentHash);
      await until(
        "the melt to be recorded",
        async () => (await w.checkMeltQuoteBolt11(quote.quote)).state === "PAID",
      );
      expect((await w.checkProofsStates(send)).every((s) => s.state === "SPENT")).toBe(true);
      // The change was signed too: it is in the quote, for the wallet's blank outputs.
      const settled = await w.checkMeltQuoteBolt11(quote.quote);
      expect(settled.payment_preimage).toMatch(/^[0-9a-f]{64}$/);
      expect(total(settled.change ?? [])).toBe(quote.fee_reserve.toNumber());
      // Trying again does not pay twice.
      expect(await refusal(w.meltProofsBolt11(quote, send))).toBe(20006);
    }, 120_000);

    it("a mint that announces its end of service to one scope only", async () => {
      const at = Math.floor(Date.now() / 1000) + 3 * 86_400;
      const url = await hostile("ending", "ending", { at });
      expect((await (await fetch(`${url}/v1/info`)).json()).end_of_service).toBe(at);
      expect((await (await fetch(`${h.cashu.mintUrl}/v1/info`)).json()).end_of_service).toBeNull();
      await hostile("ending", null);
      expect((await (await fetch(`${url}/v1/info`)).json()).end_of_service).toBeNull();
    });

    it("a mint that never answers", async () => {
      const url = await hostile("hang", "never-answers");
      await expect(fetch(`${url}/v1/info`, { signal: AbortSignal.timeout(1_000) })).rejects.toThrow();
      expect((await fetch(`${h.cashu.mintUrl}/v1/info`)).status).toBe(200);
      await hostile("hang", null);
      expect((await fetch(`${url}/v1/info`)).status).toBe(200);
    });
  });

  it("announces an end of service in its info when told to", async () => {
    const at = Math.floor(Date.now() / 1000) + 86_400;
    const set = await post(`${h.cashu.mintUrl}/admin/expiry`, JSON.stringify({ end_of_service: at }));
    expect(set.status).toBe(200);
    expect((await (await fetch(`${h.cashu.mintUrl}/v1/info`)).json()).end_of_service).toBe(at);
    expect((await (await fetch(`${h.cashu.mint2Url}/v1/info`)).json()).end_of_service).toBeNull();
    h.cashu.setExpiry(at + 1, "mint2");
    expect((await (await fetch(`${h.cashu.mint2Url}/v1/info`)).json()).end_of_service).toBe(at + 1);
    h.cashu.setExpiry(null, "mint2");
    expect(
      (await post(`${h.cashu.mintUrl}/admin/expiry`, '{"end_of_service": null}')).json.end_of_service,
    ).toBeNull();
    expect((await post(`${h.cashu.mintUrl}/admin/expiry`, '{"end_of_service": "soon"}')).status).toBe(400);
  });

  it("answers bad input with 400 {detail, code} and keeps serving", async () => {
    const base = h.cashu.mintUrl;
    const endpoints = [
      "/v1/swap",
      "/v1/mint/quote/bolt11",
      "/v1/mint/bolt11",
      "/v1/melt/quote/bolt11",
      "/v1/melt/bolt11",
      "/v1/checkstate",
      "/v1/restore",
    ];
    const bodies = ["", "not json", "null", "[]", "42", '{"inputs": 5}', '{"amount": -1, "unit": "sat"}'];
    for (const path of endpoints)
      for (const body of bodies) {
        const r = await post(`${base}${path}`, body);
        expect(r.status, `${path} ${body}`).toBe(400);
        expect(r.json).toMatchObject({ detail: expect.any(String), code: expect.any(Number) });
      }

    const code = async (path: string, body: unknown) =>
      (await post(`${base}${path}`, JSON.stringify(body))).json.code;
    expect(await code("/v1/mint/quote/bolt11", { amount: 10, unit: "usd" })).toBe(11013);
    expect(await code("/v1/mint/quote/bolt11", { amount: 2_000_000, unit: "sat" })).toBe(11006);
    expect(await code("/v1/mint/quote/bolt11", { amount: 1.5, unit: "sat" })).toBe(0);
    expect(await code("/v1/melt/quote/bolt11", { request: "lnbcrt1nonsense", unit: "sat" })).toBe(0);
    const amountless = h.lightning.node.createInvoice(null, "any amount").bolt11;
    expect(await code("/v1/melt/quote/bolt11", { request: amountless, unit: "sat" })).toBe(11011);
    expect(await code("/v1/checkstate", { Ys: ["zz"] })).toBe(0);

    // Proofs: a forged signature, an unknown keyset, a point off the curve, the same proof twice.
    const w = await wallet(base);
    const [p] = await fund(w, 1);
    const proof = { amount: 1, id: p!.id, secret: p!.secret, C: p!.C };
    const output = { amount: 1, id: p!.id, B_: p!.C };
    const output2 = { amount: 1, id: p!.id, B_: keys.keys["1"] };
    const swap = (inputs: unknown[], outputs: unknown[] = [output]) => code("/v1/swap", { inputs, outputs });
    expect(await swap([{ ...proof, secret: `${proof.secret}0` }])).toBe(10001);
    expect(await swap([{ ...proof, id: `01${"ab".repeat(32)}` }])).toBe(12001);
    expect(await swap([{ ...proof, C: `02${"ff".repeat(32)}` }])).toBe(0);
    expect(await swap([proof, proof], [output, output2])).toBe(11007);
    expect(await swap([proof], [output, output])).toBe(11008);
    expect(await swap([proof], [{ ...output, amount: 2 }])).toBe(11005);
    expect(await swap([proof], [{ ...output, amount: 3 }])).toBe(0);
    expect(
      await swap(
        [proof],
        Array.from({ length: 1_001 }, () => output),
      ),
    ).toBe(0);
    // None of that spent the proof.
    expect((await w.checkProofsStates([p!]))[0]!.state).toBe("UNSPENT");

    const get = async (path: string) => {
      const r = await fetch(`${base}${path}`);
      return { status: r.status, json: await r.json() };
    };
    expect(await get(`/v1/keys/${"00".repeat(8)}`)).toMatchObject({ status: 400, json: { code: 12001 } });
    expect(await get("/v1/mint/quote/bolt11/nope")).toMatchObject({ status: 400, json: { code: 0 } });
    expect(await get("/v1/melt/quote/bolt11/nope")).toMatchObject({ status: 400, json: { code: 0 } });
    expect((await get("/v1/mint/quote/bolt12/x")).status).toBe(404);
    const long = { amount: 1, unit: "sat", description: "é".repeat(400) };
    expect(await code("/v1/mint/quote/bolt11", long)).toBe(0);
    expect((await fetch(`${base}/v1/info`)).status).toBe(200);
  }, 120_000);
});
