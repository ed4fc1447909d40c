/**
 * The lightning node's keys come from the wallet's 12 words, so the words alone bring back the node id
 * and every key a channel close pays to.
 *
 * Derivation: BIP39 seed → BIP32 master → m/535'/0' ; the child's 32-byte private key is the seed of
 * LDK's KeysManager (which derives the node secret, channel keys and the destination/shutdown scripts from
 * it). 535 is the purpose number the same wallet family has always used for its lightning keys; it is
 * hardened so the node seed reveals nothing of the on-chain account (m/84').
 */
import { rootKey } from "../keys/mnemonic";

export const LIGHTNING_PATH = "m/535'/0'";

export const lightningSeed = (mnemonic: string): Uint8Array => {
  const key = rootKey(mnemonic).derive(LIGHTNING_PATH).privateKey;
  if (!key) throw new Error("The lightning key could not be derived");
  return key;
};
