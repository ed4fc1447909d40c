import { HDKey } from "@scure/bip32";
import {
  generateMnemonic,
  mnemonicToSeedSync,
  mnemonicToSeedWebcrypto,
  validateMnemonic,
} from "@scure/bip39";
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
 * The last words' BIP39 seed and BIP32 root. Opening a wallet needs them several times (the on-chain
 * account, the lightning node's seed, the storage keys, ecash), and the BIP39 stretch behind them (2048
 * rounds of PBKDF2) is among the slowest steps of that path, so it runs once: natively and off the thread's
 * turn when the wallet opens (`prepareRootKey`), in JavaScript only where the platform has no WebCrypto.
 */
let lastRoot: { readonly mnemonic: string; readonly seed: Uint8Array; readonly key: HDKey } | null = null;

const remember = (mnemonic: string, seed: Uint8Array) => {
  lastRoot = { mnemonic, seed, key: HDKey.fromMasterSeed(seed) };
  return lastRoot;
};

/** The words' seed and root: the remembered ones, or stretched now in JavaScript. */
const rootOf = (mnemonic: string) =>
  lastRoot?.mnemonic === mnemonic ? lastRoot : remember(mnemonic, mnemonicToSeedSync(mnemonic));

/** The words' BIP39 seed (no passphrase). */
export const seedOf = (mnemonic: string): Uint8Array => rootOf(mnemonic).seed;

export const rootKey = (mnemonic: string): HDKey => rootOf(mnemonic).key;

/** Stretches the words with the platform's PBKDF2 before anything asks for their keys (a wallet opens). */
export const prepareRootKey = async (mnemonic: string): Promise<void> => {
  if (lastRoot?.mnemonic === mnemonic) return;
  const seed = await mnemonicToSeedWebcrypto(mnemonic).catch(() => null);
  if (seed && lastRoot?.mnemonic !== mnemonic) remember(mnemonic, seed);
};

/** Drops the remembered root, once the wallet it belongs to is gone from this device. */
export const forgetRootKey = (): void => {
  lastRoot = null;
};
