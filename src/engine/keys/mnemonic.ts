import { HDKey } from "@scure/bip32";
import { generateMnemonic, mnemonicToSeedSync, validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";

/** Seeds are 12 words (128 bits of entropy). */
export const SEED_WORDS = 12;

export const newMnemonic = (): string => generateMnemonic(wordlist, 128);

export const isValidMnemonic = (m: string): boolean => validateMnemonic(m, wordlist);

export const isBip39Word = (w: string): boolean => wordlist.includes(w);

/** Normalises typed or pasted words: trimmed, lower-case, single spaces. */
export const normaliseWords = (input: string): string[] =>
  input
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0);

/**
 * The last words' BIP32 root. Opening a wallet needs it twice (the on-chain account and the lightning
 * node's seed), and the BIP39 stretch behind it (2048 rounds of PBKDF2) is among the slowest steps of
 * that path, so it runs once.
 */
let lastRoot: { readonly mnemonic: string; readonly key: HDKey } | null = null;

export const rootKey = (mnemonic: string): HDKey => {
  if (lastRoot?.mnemonic !== mnemonic)
    lastRoot = { mnemonic, key: HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic)) };
  return lastRoot.key;
};

/** Drops the remembered root, once the wallet it belongs to is gone from this device. */
export const forgetRootKey = (): void => {
  lastRoot = null;
};
