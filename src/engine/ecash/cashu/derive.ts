/**
 * NUT-13's secrets and blinding factors for many counters of one keyset, as a restore asks for them: the
 * same bytes as cashu-ts's `deriveSecretAndBlindingFactor`, at a fraction of the cost for BIP32 keysets.
 *
 * A keyset with a version-0 id derives each counter at m/129372'/0'/{keyset}'/{counter}'/{0,1}. cashu-ts
 * already derives the keyset's node once, but @scure/bip32 computes the public key of every node it makes:
 * three multiplications of the generator per counter, of which only the counter node's is used (its two
 * children are non-hardened, so their HMAC takes the parent's public key). Here the keyset node and each
 * counter node come from @scure/bip32 as before, and the two leaves are BIP32's private child derivation
 * itself (HMAC-SHA512, then the tweak added to the parent key), without the public keys nobody reads. The
 * rare cases BIP32 answers by moving to the next index (a tweak at or above the group order, or a zero key;
 * about 2⁻¹²⁷) are left to @scure/bip32, so they come out exactly as it makes them.
 *
 * Version-1 keysets (HMAC-SHA256 derivation) are cheap already: cashu-ts derives them.
 */
import { deriveSecretAndBlindingFactor, getKeysetIdInt } from "@cashu/cashu-ts";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha512 } from "@noble/hashes/sha2.js";
import { concatBytes } from "@noble/hashes/utils.js";
import { HARDENED_OFFSET, HDKey } from "@scure/bip32";

const Fn = secp256k1.Point.Fn;

export interface Derived {
  readonly secret: Uint8Array;
  readonly blindingFactor: Uint8Array;
}

/** BIP32's private child of `parent` at the non-hardened `index`, without computing its public key. */
const leaf = (parent: HDKey, index: 0 | 1): Uint8Array => {
  const { privateKey, publicKey, chainCode } = parent;
  if (!privateKey || !publicKey || !chainCode) throw new Error("Could not derive private key");
  const I = hmac(sha512, chainCode, concatBytes(publicKey, Uint8Array.of(0, 0, 0, index)));
  const tweak = Fn.fromBytes(I.subarray(0, 32), true);
  if (Fn.isValid(tweak)) {
    const key = Fn.create(Fn.fromBytes(privateKey) + tweak);
    if (Fn.isValidNot0(key)) return Fn.toBytes(key);
  }
  // BIP32 moves to the next index here: as @scure/bip32 does it.
  const child = parent.deriveChild(index).privateKey;
  if (!child) throw new Error("Could not derive private key");
  return child;
};

const isHex = (s: string) => /^[a-fA-F0-9]+$/.test(s);

/**
 * The NUT-13 deriver of `seed` for `keysetId`: counter → secret and blinding factor, byte for byte what
 * cashu-ts derives. The keyset's BIP32 node is derived once, on the first counter asked.
 */
export const nut13Deriver = (seed: Uint8Array, keysetId: string): ((counter: number) => Derived) => {
  if (!(isHex(keysetId) && keysetId.startsWith("00")))
    return (counter) => deriveSecretAndBlindingFactor(seed, keysetId, counter);
  let keyset: HDKey | null = null;
  return (counter) => {
    if (!Number.isInteger(counter) || counter < 0 || counter >= HARDENED_OFFSET)
      throw new Error("Counter must be an integer in the range 0 <= counter < 2^31");
    keyset ??= HDKey.fromMasterSeed(seed).derive(`m/129372'/0'/${getKeysetIdInt(keysetId)}'`);
    const node = keyset.deriveChild(HARDENED_OFFSET + counter);
    return { secret: leaf(node, 0), blindingFactor: leaf(node, 1) };
  };
};
