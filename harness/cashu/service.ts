/**
 * The local world's two Cashu mints, served by the world's HTTP server: mint A under `/cashu`, mint B under
 * `/cashu2`. Both take their invoices from, and make their payments with, the world's lightning node. An
 * invoice of one of their own quotes is settled between them without a lightning payment (as real mints
 * settle their own invoices internally): the node cannot pay itself. Invoices of the node itself that are
 * not quotes, or routed through it by a hint (just-in-time channels), are paid by the world's payer node, as
 * `/ln/pay` does (but a hint through a private channel the node already has, it pays itself).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { hex, utf8 } from "@scure/base";
import { decodeBolt11 } from "../../src/engine/parse/bolt11";
import type { PaymentResult } from "../../src/engine/lightning/node-types";
import { type HarnessNode, hintsThrough } from "../lightning";
import type { Hostility } from "../hostile";
import type { RouteTable } from "../server";
import { CashuMint, type MintLightning, type MintOptions, type PayOutcome } from "./mint";

export interface CashuWorld {
  /** Mint A, e.g. `http://127.0.0.1:3002/cashu`. */
  readonly mintUrl: string;
  /** Mint B (a second custodian), e.g. `http://127.0.0.1:3002/cashu2`. */
  readonly mint2Url: string;
  readonly mint: CashuMint;
  readonly mint2: CashuMint;
  /**
   * Announces an end of service (Unix seconds; null for none) in a mint's info (`end_of_service`), as
   * `POST /cashu/admin/expiry {"end_of_service"}` does.
   */
  readonly setExpiry: (endOfService: number | null, which?: "mint" | "mint2") => void;
  /** Resolves once every melt still under way at either mint has its outcome. */
  readonly settled: () => Promise<void>;
}

const outcomeOf = (r: PaymentResult): PayOutcome | null =>
  r.status === "succeeded"
    ? { status: "succeeded", preimage: r.preimage, feeMsat: r.feeMsat }
    : r.status === "failed"
      ? { status: "failed", reason: r.reason }
      : null;

/** The lightning side of the world's mints: the world's node, its payer, and settlement between the mints. */
export const worldMintLightning = (
  lightning: HarnessNode,
  payer: () => Promise<HarnessNode>,
): MintLightning & { readonly stop: () => void } => {
  const received = new Set<string>();
  for (const e of lightning.events) if (e.type === "payment_received") received.add(e.paymentHash);
  const off = lightning.on((e) => {
    if (e.type === "payment_received") received.add(e.paymentHash);
  });
  /** Payment hash → invoice of every quote the world's mints handed out. */
  const quotes = new Map<string, string>();
  const settledInside = new Set<string>();
  return {
    createInvoice: (amountMsat, description, expirySecs) => {
      const r = lightning.node.createInvoice(amountMsat, description, expirySecs);
      quotes.set(r.paymentHash, r.bolt11);
      return r;
    },
    isPaid: (hash) => received.has(hash) || settledInside.has(hash),
    isInternal: (hash) => quotes.has(hash),
    settleInternal: (hash) => {
      const bolt11 = quotes.get(hash);
      const preimage = bolt11 ? lightning.node.preimageOf(bolt11) : null;
      if (!preimage) throw new Error("Not an invoice of the world's mints");
      settledInside.add(hash);
      return hex.encode(preimage);
    },
    pay: async (bolt11, maxFeeMsat) => {
      // The node cannot pay itself, nor through a hint of its own that is no channel yet (a just-in-time
      // channel's intercept SCID): those the payer pays. A private channel of the node's own it uses.
      const payee = decodeBolt11(bolt11)?.payeePubkey;
      const own =
        payee === lightning.pubkey ||
        (hintsThrough(bolt11, lightning.pubkey) && !lightning.node.channels().some((c) => c.peer === payee));
      const via = own ? await payer() : lightning;
      const s = via.node.sendInvoice(bolt11, maxFeeMsat);
      if (!s.started) {
        const now = outcomeOf(s.result) ?? { status: "failed", reason: "unknown" };
        return { now, final: Promise.resolve(now) };
      }
      const final = new Promise<PayOutcome>((resolve) => {
        const stop = via.on((e) => {
          if (e.type === "payment_sent" && e.paymentHash === s.paymentHash) {
            stop();
            resolve({ status: "succeeded", preimage: e.preimage, feeMsat: e.feeMsat });
          } else if (e.type === "payment_failed" && e.paymentId === s.paymentId) {
            stop();
            resolve({ status: "failed", reason: e.reason });
          }
        });
      });
      const now = outcomeOf(await s.done);
      return { now, final: now ? Promise.resolve(now) : final };
    },
    stop: off,
  };
};

const seedOf = (label: string): Uint8Array => sha256(utf8.decode(`local world cashu mint ${label}`));

export const MINT_A: Omit<MintOptions, "seed"> = {
  name: "Local World Mint",
  description: "The local world's Cashu mint, backed by the world's lightning node.",
};
export const MINT_B: Omit<MintOptions, "seed"> = {
  name: "Second Local Mint",
  description: "A second custodian in the local world, for transfers between mints.",
};

/** Starts both mints; `base` is the world server's URL. Answers them and their routes. */
export const startCashuWorld = (
  base: string,
  lightning: HarnessNode,
  payer: () => Promise<HarnessNode>,
  hostility?: Hostility,
): CashuWorld & { readonly routes: RouteTable; readonly stop: () => void } => {
  const ln = worldMintLightning(lightning, payer);
  const mint = new CashuMint({ ...MINT_A, seed: seedOf("A") }, ln);
  const mint2 = new CashuMint({ ...MINT_B, seed: seedOf("B") }, ln);
  const mintUrl = `${base}/cashu`;
  const mint2Url = `${base}/cashu2`;
  mint.urls = [mintUrl];
  mint2.urls = [mint2Url];
  const route = async (m: RegExpMatchArray, body: string, method: string) => {
    const scope = m[2];
    const lie = scope ? (hostility?.of("cashu", scope) ?? null) : null;
    const r = await (m[1] === "cashu2" ? mint2 : mint).handle(
      method,
      m[3] ?? "",
      body,
      lie?.mode ?? null,
      lie?.options,
    );
    return { status: r.status, json: r.json };
  };
  // `/cashu/…`, `/cashu2/…`, and the same under `/hostile/<scope>` (see `harness/hostile.ts`).
  const path = /^\/(cashu2?)(?:\/hostile\/([a-z0-9-]{1,40}))?(\/.*)$/;
  return {
    mintUrl,
    mint2Url,
    mint,
    mint2,
    setExpiry: (at, which = "mint") => {
      (which === "mint2" ? mint2 : mint).endOfService = at;
    },
    settled: async () => {
      await Promise.all([mint.settled(), mint2.settled()]);
    },
    routes: [
      ["GET", path, (m, body) => route(m, body, "GET")],
      ["POST", path, (m, body) => route(m, body, "POST")],
    ],
    stop: ln.stop,
  };
};
