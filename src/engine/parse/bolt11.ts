/**
 * BOLT11 lightning invoices: decoded with light-bolt11-decoder, then held to the reader rules of BOLT11
 * that the decoder leaves out (signature, payment secret, unknown required features).
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bech32, hex, utf8 } from "@scure/base";
import { decode } from "light-bolt11-decoder";
import type { Network } from "../../events/types";

/** BOLT11 `x` default: an invoice without an expiry field expires an hour after its timestamp. */
export const DEFAULT_INVOICE_EXPIRY_SECONDS = 3_600;

/** The network each invoice prefix (human-readable part before the amount) is for. */
const NETWORK_BY_PREFIX: Readonly<Record<string, Network>> = {
  bc: "bitcoin",
  tb: "testnet",
  tbs: "signet",
  bcrt: "regtest",
};

export interface Bolt11Invoice {
  /** The invoice in lower case, as it is handed to the lightning node. */
  readonly invoice: string;
  readonly network: Network;
  /** Null for an invoice of any amount. */
  readonly amountMsat: bigint | null;
  /** The `d` field; null when the invoice commits to a description by hash only. */
  readonly description: string | null;
  readonly descriptionHash: string | null;
  readonly paymentHash: string;
  /** Unix seconds when the invoice was created. */
  readonly timestamp: number;
  readonly expirySeconds: number;
  /** Unix seconds after which the invoice can no longer be paid. */
  readonly expiresAt: number;
  /** The receiving node: the `n` field, or the key recovered from the signature. */
  readonly payeePubkey: string;
}

type Decoded = ReturnType<typeof decode>;

const sectionValue = (decoded: Decoded, name: string): unknown =>
  decoded.sections.find((section) => section.name === name && "value" in section)?.["value" as never];

/** 5-bit words to bytes, zero-padding the last byte, as BOLT11 does for the signed data. */
export const wordsToPaddedBytes = (words: readonly number[]): Uint8Array => {
  const bytes = new Uint8Array(Math.ceil((words.length * 5) / 8));
  let accumulator = 0;
  let bits = 0;
  let at = 0;
  for (const word of words) {
    accumulator = (accumulator << 5) | word;
    bits += 5;
    while (bits >= 8) {
      bits -= 8;
      bytes[at++] = (accumulator >> bits) & 0xff;
    }
    accumulator &= (1 << bits) - 1;
  }
  if (bits > 0) bytes[at] = (accumulator << (8 - bits)) & 0xff;
  return bytes;
};

const SIGNATURE_WORDS = 104;

/**
 * Feature bits of BOLT 9 with an invoice context beyond the ones light-bolt11-decoder names (bits below 20):
 * 48, option_payment_metadata. An invoice requiring any other even bit asks for something no reader knows.
 */
const KNOWN_EXTRA_REQUIRED_BITS = new Set([48]);

const requiresUnknownFeature = (decoded: Decoded): boolean => {
  const section = decoded.sections.find((candidate) => candidate.name === "feature_bits");
  if (!section || !("value" in section)) return false;
  const { start_bit: start, bits } = section.value.extra_bits;
  return bits.some((set, index) => {
    const bit = start + index;
    return set === true && bit % 2 === 0 && !KNOWN_EXTRA_REQUIRED_BITS.has(bit);
  });
};

/**
 * Checks the signature as a BOLT11 reader must: against `n` in low-S form when the invoice names its
 * payee, else by recovering the payee's key. Returns the payee's key, or null when the signature fails.
 */
const payeeFromSignature = (invoice: string, payee: string | undefined): string | null => {
  const { prefix, words } = bech32.decode(invoice as `${string}1${string}`, Number.MAX_SAFE_INTEGER);
  if (words.length < SIGNATURE_WORDS) return null;
  const signed = words.slice(0, -SIGNATURE_WORDS);
  const signatureBytes = bech32.fromWords(words.slice(-SIGNATURE_WORDS));
  const recovery = signatureBytes[64];
  if (recovery === undefined || recovery > 3) return null;
  const message = sha256(new Uint8Array([...utf8.decode(prefix), ...wordsToPaddedBytes(signed)]));
  const signature = secp256k1.Signature.fromBytes(signatureBytes.slice(0, 64), "compact");
  // Readers recover from the low-S form of the signature, keeping the recovery flag as written.
  const lowS = signature.hasHighS()
    ? new secp256k1.Signature(signature.r, secp256k1.Point.Fn.neg(signature.s))
    : signature;
  if (payee !== undefined) {
    const valid = secp256k1.verify(signature.toBytes("compact"), message, hex.decode(payee), {
      prehash: false,
      lowS: true,
    });
    return valid ? payee : null;
  }
  return lowS.addRecoveryBit(recovery).recoverPublicKey(message).toHex(true);
};

/**
 * Decodes a BOLT11 invoice (any case, no `lightning:` prefix). Null when it is not a well-formed invoice
 * of a known network, its signature does not check, it lacks a payment hash or payment secret, or it
 * requires a feature no reader knows.
 */
export const decodeBolt11 = (text: string): Bolt11Invoice | null => {
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) return null;
  const invoice = text.toLowerCase();
  try {
    const decoded = decode(invoice);
    const coin = decoded.sections.find((section) => section.name === "coin_network");
    const network = coin ? NETWORK_BY_PREFIX[coin.letters] : undefined;
    if (network === undefined) return null;

    const paymentHash = sectionValue(decoded, "payment_hash");
    if (typeof paymentHash !== "string" || paymentHash.length !== 64) return null;
    if (typeof sectionValue(decoded, "payment_secret") !== "string") return null;
    if (requiresUnknownFeature(decoded)) return null;

    const payee = sectionValue(decoded, "payee");
    const payeePubkey = payeeFromSignature(invoice, typeof payee === "string" ? payee : undefined);
    if (payeePubkey === null) return null;

    const amount = sectionValue(decoded, "amount");
    const description = sectionValue(decoded, "description");
    const descriptionHash = sectionValue(decoded, "description_hash");
    const timestamp = sectionValue(decoded, "timestamp");
    const expiry = sectionValue(decoded, "expiry");
    if (typeof timestamp !== "number") return null;
    const expirySeconds = typeof expiry === "number" ? expiry : DEFAULT_INVOICE_EXPIRY_SECONDS;
    return {
      invoice,
      network,
      amountMsat: typeof amount === "string" ? BigInt(amount) : null,
      description: typeof description === "string" ? description : null,
      descriptionHash: typeof descriptionHash === "string" ? descriptionHash : null,
      paymentHash,
      timestamp,
      expirySeconds,
      expiresAt: timestamp + expirySeconds,
      payeePubkey,
    };
  } catch {
    return null;
  }
};
