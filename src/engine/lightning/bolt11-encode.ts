/**
 * Writes signed BOLT11 invoices field by field. LDK's invoice helpers cannot carry a route hint of our
 * choosing, which a just-in-time channel needs (the LSP's intercept SCID); this writes such an invoice
 * for a payment hash and secret LDK made, signed with the node's key. Tests also use it to hand out
 * invoices of made-up nodes.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bech32, hex, utf8 } from "@scure/base";
import type { Network } from "../../events/types";
import { wordsToPaddedBytes } from "../parse/bolt11";

/** The human-readable prefix of each network's invoices. */
export const INVOICE_PREFIX: { readonly [N in Network]: string } = {
  bitcoin: "lnbc",
  testnet: "lntb",
  signet: "lntbs",
  regtest: "lnbcrt",
};

/** One tagged field: its type (a bech32 character's value) and its 5-bit words. */
export interface TaggedField {
  readonly code: number;
  readonly words: readonly number[];
}

export interface RouteHintHop {
  /** The hop's node, 33-byte compressed public key in hex. */
  readonly pubkey: string;
  readonly scid: bigint;
  readonly feeBaseMsat: number;
  readonly feeProportionalMillionths: number;
  readonly cltvExpiryDelta: number;
}

const UNITS: [string, bigint][] = [
  ["m", 100_000_000n],
  ["u", 100_000n],
  ["n", 100n],
];

/** The BOLT11 amount of `msat`, shortest form: `25m`, `10u`, `2500n`, or pico-bitcoin `…0p`. */
const amountPart = (msat: bigint): string => {
  if (msat % 100_000_000_000n === 0n) return String(msat / 100_000_000_000n);
  for (const [unit, size] of UNITS) if (msat % size === 0n) return `${msat / size}${unit}`;
  return `${msat * 10n}p`;
};

/** `value` as exactly `count` big-endian 5-bit words. */
const toWords = (value: bigint, count: number): number[] => {
  const out: number[] = [];
  for (let i = count - 1; i >= 0; i--) out.push(Number((value >> BigInt(5 * i)) & 31n));
  return out;
};

/** `value` in the fewest big-endian 5-bit words (at least one). */
const minimalWords = (value: bigint): number[] => {
  let count = 1;
  while (value >> BigInt(5 * count) > 0n) count++;
  return toWords(value, count);
};

const bytesField = (code: number, bytes: Uint8Array): TaggedField => ({ code, words: bech32.toWords(bytes) });

const be = (value: bigint, bytes: number): number[] => {
  const out: number[] = [];
  for (let i = bytes - 1; i >= 0; i--) out.push(Number((value >> BigInt(8 * i)) & 0xffn));
  return out;
};

/** The tagged fields of BOLT11 this wallet writes. */
export const field = {
  paymentHash: (hash: Uint8Array): TaggedField => bytesField(1, hash),
  paymentSecret: (secret: Uint8Array): TaggedField => bytesField(16, secret),
  description: (text: string): TaggedField => bytesField(13, utf8.decode(text)),
  descriptionHash: (hash: Uint8Array): TaggedField => bytesField(23, hash),
  expiry: (seconds: number): TaggedField => ({ code: 6, words: minimalWords(BigInt(seconds)) }),
  minFinalCltvExpiry: (blocks: number): TaggedField => ({ code: 24, words: minimalWords(BigInt(blocks)) }),
  /** An on-chain fallback: witness version (or 17 P2PKH, 18 P2SH) and its program or hash. */
  fallback: (version: number, program: Uint8Array): TaggedField => ({
    code: 9,
    words: [version, ...bech32.toWords(program)],
  }),
  /** Feature bits (BOLT 9), e.g. [8, 14] for var_onion_optin and payment_secret, both required. */
  features: (bits: readonly number[]): TaggedField => {
    const value = bits.reduce((v, bit) => v | (1n << BigInt(bit)), 0n);
    return { code: 5, words: minimalWords(value) };
  },
  /** A private route to the payee, hop by hop (`r`). */
  routeHint: (hops: readonly RouteHintHop[]): TaggedField =>
    bytesField(
      3,
      new Uint8Array(
        hops.flatMap((h) => [
          ...hex.decode(h.pubkey),
          ...be(h.scid, 8),
          ...be(BigInt(h.feeBaseMsat), 4),
          ...be(BigInt(h.feeProportionalMillionths), 4),
          ...be(BigInt(h.cltvExpiryDelta), 2),
        ]),
      ),
    ),
};

/** Features every invoice of the wallet carries: var_onion_optin and payment_secret required, basic_mpp optional. */
export const INVOICE_FEATURES = [8, 14, 17] as const;

/**
 * A signed invoice: `prefix` (`lnbc`, `lnbcrt`, ...), the amount (null: any), the creation time (unix
 * seconds), the tagged fields in the order given, and the payee's 32-byte secret key.
 */
export const encodeInvoice = (opts: {
  readonly prefix: string;
  readonly amountMsat: bigint | null;
  readonly timestamp: number;
  readonly fields: readonly TaggedField[];
  readonly secretKey: Uint8Array;
}): string => {
  const hrp = `${opts.prefix}${opts.amountMsat === null ? "" : amountPart(opts.amountMsat)}`;
  const words = [
    ...toWords(BigInt(opts.timestamp), 7),
    ...opts.fields.flatMap((f) => {
      if (f.words.length >= 1024) throw new Error("An invoice field is too long");
      return [f.code, ...toWords(BigInt(f.words.length), 2), ...f.words];
    }),
  ];
  const message = sha256(new Uint8Array([...utf8.decode(hrp), ...wordsToPaddedBytes(words)]));
  const sig = secp256k1.sign(message, opts.secretKey, { prehash: false, format: "recovered" });
  // noble puts the recovery flag first; BOLT11 puts it last.
  const signature = new Uint8Array([...sig.slice(1), sig[0]!]);
  return bech32.encode(hrp, [...words, ...bech32.toWords(signature)], false);
};
