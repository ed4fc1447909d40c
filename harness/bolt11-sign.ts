/**
 * Writes signed BOLT11 invoices (regtest) for tests of services that hand invoices out: amount, payment
 * hash, payment secret, description hash, expiry, signed by the given node key.
 */
import { randomBytes } from "node:crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bech32 } from "@scure/base";

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

const toWords = (value: bigint, count: number): number[] => {
  const out: number[] = [];
  for (let i = count - 1; i >= 0; i--) out.push(Number((value >> BigInt(5 * i)) & 31n));
  return out;
};

const tagged = (code: number, data: Uint8Array | number[]): number[] => {
  const words = data instanceof Uint8Array ? bech32.toWords(data) : data;
  return [code, ...toWords(BigInt(words.length), 2), ...words];
};

const wordsToPaddedBytes = (words: readonly number[]): Uint8Array => {
  const bytes = new Uint8Array(Math.ceil((words.length * 5) / 8));
  let acc = 0;
  let bits = 0;
  let at = 0;
  for (const w of words) {
    acc = (acc << 5) | w;
    bits += 5;
    while (bits >= 8) {
      bits -= 8;
      bytes[at++] = (acc >> bits) & 0xff;
    }
  }
  if (bits > 0) bytes[at] = (acc << (8 - bits)) & 0xff;
  return bytes;
};

export const signInvoice = (opts: {
  msat: bigint;
  descriptionHash: Uint8Array;
  nodeKey?: Uint8Array;
  paymentHash?: Uint8Array;
  timestamp?: number;
  expirySeconds?: number;
}): string => {
  const key = opts.nodeKey ?? secp256k1.utils.randomSecretKey();
  const hrp = `lnbcrt${amountPart(opts.msat)}`;
  const words = [
    ...toWords(BigInt(opts.timestamp ?? Math.floor(Date.now() / 1000)), 7),
    ...tagged(1, opts.paymentHash ?? randomBytes(32)),
    ...tagged(16, randomBytes(32)),
    ...tagged(23, opts.descriptionHash),
    ...tagged(6, toWords(BigInt(opts.expirySeconds ?? 3600), 4)),
  ];
  const preimage = new Uint8Array([...new TextEncoder().encode(hrp), ...wordsToPaddedBytes(words)]);
  const sig = secp256k1.sign(sha256(preimage), key, { prehash: false, format: "recovered" });
  // noble puts the recovery flag first; BOLT11 puts it last.
  const signature = new Uint8Array([...sig.slice(1), sig[0]!]);
  return bech32.encode(hrp, [...words, ...bech32.toWords(signature)], false);
};
