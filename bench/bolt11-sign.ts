/**
 * A BOLT11 invoice made and signed here, as a member's wallet makes one for its lightning address (regtest,
 * `lnbcrt`): amount, payment hash, payment secret, the description hash the payer's request commits to,
 * expiry, final CLTV and the features a reader requires, signed with the node key (recoverable ECDSA over the
 * human-readable part and the data). The bench's simulated wallets answer `make_invoice` with these; nothing
 * here pays or holds a channel. The wallet's own reader (src/engine/parse/bolt11.ts) checks the signature.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bech32, hex, utf8 } from "@scure/base";

/** Regroups `bits`-bit values into `to`-bit ones, the last padded with zeros. */
const regroup = (values: ArrayLike<number>, from: number, to: number): number[] => {
  let acc = 0;
  let n = 0;
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) {
    acc = (acc << from) | values[i]!;
    n += from;
    while (n >= to) {
      n -= to;
      out.push((acc >> n) & ((1 << to) - 1));
    }
    acc &= (1 << n) - 1;
  }
  if (n > 0) out.push((acc << (to - n)) & ((1 << to) - 1));
  return out;
};

/** `value` in big-endian 5-bit words, at least one. */
const wordsOf = (value: number, length?: number): number[] => {
  const out: number[] = [];
  for (let v = value; v > 0; v = Math.floor(v / 32)) out.unshift(v % 32);
  while (out.length < (length ?? 1)) out.unshift(0);
  return out;
};

/** A tagged field: its type (the bech32 character's index), its length in words, its words. */
const field = (tag: string, words: number[]) => [
  "qpzry9x8gf2tvdw0s3jn54khce6mua7l".indexOf(tag),
  ...wordsOf(words.length, 2),
  ...words,
];

export interface SignedInvoice {
  readonly bolt11: string;
  readonly paymentHash: string;
  readonly preimage: string;
}

/** An invoice of `msat` (whole sats) committing to `descriptionHash` (hex), signed with `nodeSecret`. */
export const signedInvoice = (
  nodeSecret: Uint8Array,
  msat: bigint,
  descriptionHash: string | null,
  description = "",
): SignedInvoice => {
  const preimage = crypto.getRandomValues(new Uint8Array(32));
  const paymentHash = sha256(preimage);
  // Amounts in nano-bitcoin (100 msat each); whole sats always divide.
  const prefix = `lnbcrt${msat % 100n === 0n ? `${msat / 100n}n` : `${msat * 10n}p`}`;
  const features = wordsOf((1 << 14) | (1 << 8)); // payment_secret and var_onion_optin, both required
  const data = [
    ...wordsOf(Math.floor(Date.now() / 1000), 7),
    ...field("p", regroup(paymentHash, 8, 5)),
    ...field("s", regroup(crypto.getRandomValues(new Uint8Array(32)), 8, 5)),
    ...(descriptionHash
      ? field("h", regroup(hex.decode(descriptionHash), 8, 5))
      : field("d", regroup(utf8.decode(description), 8, 5))),
    ...field("x", wordsOf(3600)),
    ...field("c", wordsOf(18)),
    ...field("9", features),
  ];
  const signed = new Uint8Array([...utf8.decode(prefix), ...regroup(data, 5, 8)]);
  const sig = secp256k1.sign(sha256(signed), nodeSecret, { prehash: false, format: "recovered" });
  // BOLT11 puts r‖s first and the recovery id last.
  const words = [...data, ...regroup([...sig.slice(1), sig[0]!], 8, 5)];
  return {
    bolt11: bech32.encode(prefix, words, false),
    paymentHash: hex.encode(paymentHash),
    preimage: hex.encode(preimage),
  };
};
