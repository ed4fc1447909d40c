import { Address, NETWORK, OutScript, TEST_NETWORK } from "@scure/btc-signer";
import type { Network } from "../../events/types";

type BtcNetwork = typeof NETWORK;

/** @scure/btc-signer parameters for each network the wallet runs on. */
export const BTC_NETWORKS: { readonly [N in Network]: BtcNetwork } = {
  bitcoin: NETWORK,
  testnet: TEST_NETWORK,
  signet: TEST_NETWORK,
  regtest: { ...TEST_NETWORK, bech32: "bcrt" },
};

/**
 * The networks an address is valid on, or null when it is not an address at all. Base58 addresses of
 * testnet, signet and regtest share their prefixes, so such an address is valid on all three.
 */
export const addressNetworks = (address: string): Network[] | null => {
  const trimmed = address.trim();
  // Bech32 is case-insensitive but must not mix cases; QR codes often carry it upper-case.
  const candidate = trimmed === trimmed.toUpperCase() ? trimmed.toLowerCase() : trimmed;
  const found: Network[] = [];
  for (const n of ["bitcoin", "testnet", "signet", "regtest"] as const) {
    try {
      Address(BTC_NETWORKS[n]).decode(candidate);
      found.push(n);
    } catch {
      // not valid on this network
    }
  }
  return found.length > 0 ? found : null;
};

/** The output script paying `address` on `network`; throws when the address is not for it. */
export const scriptFor = (address: string, network: Network): Uint8Array =>
  OutScript.encode(Address(BTC_NETWORKS[network]).decode(address));
