/**
 * Each wallet-connect connection has its own key pairs, derived from the seed by its index: the wallet
 * service's (what the app writes to) and the app's client secret (given to the app in the URI). Nothing is
 * stored: the same seed gives the same keys on every device, so a restored wallet serves its connections.
 */
import { hex } from "@scure/base";
import { getPublicKey } from "nostr-tools/pure";
import { rootKey } from "../keys/mnemonic";

export interface NwcKeys {
  readonly serviceSecret: Uint8Array;
  readonly servicePubkey: string;
  readonly clientSecret: Uint8Array;
  readonly clientPubkey: string;
}

/** Hardened paths under purpose 47' (NIP-47): m/47'/0'/index' for the service, m/47'/1'/index' the app. */
const secretAt = (mnemonic: string, branch: 0 | 1, index: number): Uint8Array => {
  const key = rootKey(mnemonic).derive(`m/47'/${branch}'/${index}'`).privateKey;
  if (!key) throw new Error("The wallet-connect key could not be derived");
  return key;
};

export const nwcKeys = (mnemonic: string, index: number): NwcKeys => {
  const serviceSecret = secretAt(mnemonic, 0, index);
  const clientSecret = secretAt(mnemonic, 1, index);
  return {
    serviceSecret,
    servicePubkey: getPublicKey(serviceSecret),
    clientSecret,
    clientPubkey: getPublicKey(clientSecret),
  };
};

export const toHex = (b: Uint8Array): string => hex.encode(b);
