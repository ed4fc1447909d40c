/**
 * The BIP84 account of a seed: m/84'/0'/0' on bitcoin, m/84'/1'/0' on the test networks, with the
 * external (receive) chain 0 and the internal (change) chain 1, all native segwit (P2WPKH).
 */
import { createBase58check, hex } from "@scure/base";
import type { HDKey } from "@scure/bip32";
import { p2wpkh } from "@scure/btc-signer";
import { sha256 } from "@noble/hashes/sha2.js";
import type { Network, OnchainKeychain } from "../../events/types";
import { BTC_NETWORKS } from "./networks";

/** Addresses scanned past the last used one on each chain before the scan stops. */
export const GAP_LIMIT = 20;

export interface AccountAddress {
  readonly address: string;
  /** Hex of the output script. */
  readonly script: string;
  readonly keychain: OnchainKeychain;
  readonly index: number;
}

/** SLIP-132 version bytes of a BIP84 account key: zpub/zprv on bitcoin, vpub/vprv elsewhere. */
const VERSIONS = {
  bitcoin: { public: 0x04b24746, private: 0x04b2430c },
  test: { public: 0x045f1cf6, private: 0x045f18bc },
};

const base58check = createBase58check(sha256);

const withVersion = (extendedKey: string, version: number): string => {
  const bytes = base58check.decode(extendedKey);
  const out = new Uint8Array(bytes);
  new DataView(out.buffer).setUint32(0, version);
  return base58check.encode(out);
};

export const accountPath = (network: Network): string => `m/84'/${network === "bitcoin" ? 0 : 1}'/0'`;

export class Bip84Account {
  private readonly account: HDKey;
  private readonly chains: { readonly [K in OnchainKeychain]: HDKey };
  private readonly cache = new Map<string, AccountAddress>();
  private readonly byScript = new Map<string, AccountAddress>();

  constructor(
    root: HDKey,
    readonly network: Network,
  ) {
    this.account = root.derive(accountPath(network));
    this.chains = { external: this.account.deriveChild(0), internal: this.account.deriveChild(1) };
  }

  /** The account's public key as a zpub (bitcoin) or vpub (test networks). */
  get extendedPublicKey(): string {
    const v = this.network === "bitcoin" ? VERSIONS.bitcoin : VERSIONS.test;
    return withVersion(this.account.publicExtendedKey, v.public);
  }

  get extendedPrivateKey(): string {
    const v = this.network === "bitcoin" ? VERSIONS.bitcoin : VERSIONS.test;
    return withVersion(this.account.privateExtendedKey, v.private);
  }

  address(keychain: OnchainKeychain, index: number): AccountAddress {
    const id = `${keychain}/${index}`;
    const known = this.cache.get(id);
    if (known) return known;
    const pub = this.chains[keychain].deriveChild(index).publicKey;
    if (!pub) throw new Error(`No public key at ${keychain}/${index}`);
    const pay = p2wpkh(pub, BTC_NETWORKS[this.network]);
    const a: AccountAddress = { address: pay.address ?? "", script: hex.encode(pay.script), keychain, index };
    this.cache.set(id, a);
    this.byScript.set(a.script, a);
    return a;
  }

  publicKey(keychain: OnchainKeychain, index: number): Uint8Array {
    const pub = this.chains[keychain].deriveChild(index).publicKey;
    if (!pub) throw new Error(`No public key at ${keychain}/${index}`);
    return pub;
  }

  privateKey(keychain: OnchainKeychain, index: number): Uint8Array {
    const key = this.chains[keychain].deriveChild(index).privateKey;
    if (!key) throw new Error(`No private key at ${keychain}/${index}`);
    return key;
  }

  /** Which of the derived addresses pays to this output script (hex), if any. */
  owner(script: string): AccountAddress | undefined {
    return this.byScript.get(script);
  }

  /** Every derived address's script, for telling the wallet's outputs apart. */
  isMine(script: string): boolean {
    return this.byScript.has(script);
  }
}
