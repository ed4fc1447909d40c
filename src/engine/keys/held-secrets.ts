/**
 * Every secret the wallet's words give it, as strings a log line could carry: the phrase and its words, the
 * BIP39 seed, the BIP32 root (hex, xprv and tprv), the on-chain account's extended private keys, the
 * lightning node's seed, the remote store's keys and the NIP-06 nostr key (hex and nsec). Redaction (src/security/redact.ts) cuts
 * them out of anything that leaves the device.
 */
import { hex } from "@scure/base";
import { HDKey } from "@scure/bip32";
import { nip19 } from "nostr-tools";
import type { HeldSecrets } from "../../security/redact";
import { Bip84Account } from "../onchain/account";
import { LIGHTNING_PATH } from "../lightning/seed";
import { STORAGE_AUTH_PATH, STORAGE_SEED_PATH, storageKeysOfWords } from "../storage/keys";
import { rootKey, seedOf } from "./mnemonic";

/** NIP-06: the nostr key of the words' first account. */
export const NOSTR_PATH = "m/44'/1237'/0'/0/0";
const TEST_VERSIONS = { private: 0x04358394, public: 0x043587cf };

export const secretsOfWords = (mnemonic: string, extra: readonly string[] = []): HeldSecrets => {
  const seed = seedOf(mnemonic);
  const root = rootKey(mnemonic);
  const strings: string[] = [
    mnemonic,
    hex.encode(seed),
    root.privateExtendedKey,
    HDKey.fromMasterSeed(seed, TEST_VERSIONS).privateExtendedKey,
    new Bip84Account(root, "bitcoin").extendedPrivateKey,
    new Bip84Account(root, "regtest").extendedPrivateKey,
  ];
  const add = (k: Uint8Array | null) => {
    if (k) strings.push(hex.encode(k));
  };
  add(root.privateKey);
  add(root.derive(LIGHTNING_PATH).privateKey);
  add(root.derive(STORAGE_SEED_PATH).privateKey);
  add(root.derive(STORAGE_AUTH_PATH).privateKey);
  const storage = storageKeysOfWords(mnemonic);
  for (const k of [storage.data, storage.nameMac, storage.nameEnc]) add(k);
  const nostr = root.derive(NOSTR_PATH).privateKey;
  if (nostr) {
    add(nostr);
    strings.push(nip19.nsecEncode(nostr));
  }
  return { strings: [...strings, ...extra], words: mnemonic.trim().split(/\s+/) };
};
