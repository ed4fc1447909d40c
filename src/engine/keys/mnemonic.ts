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

export const rootKey = (mnemonic: string): HDKey => HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
