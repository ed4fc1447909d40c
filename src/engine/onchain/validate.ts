/** The on-chain rules of spec 1 §5 and their catalogue texts (§8). */
import { InvalidInput, WrongNetwork } from "../../errors";
import type { Network } from "../../events/types";
import { addressNetworks, scriptFor } from "./networks";

/** Smallest on-chain amount the wallet sends or asks for. */
export const MIN_ONCHAIN_SATS = 546n;
/** Amounts above this (about 21 million coins) are refused. */
export const MAX_ONCHAIN_SATS = 2_099_999_997_690_000n;

export const addressNotRecognised = () =>
  new InvalidInput({ message: "Address not recognised.", key: "send.error_address" });

export interface Destination {
  readonly address: string;
  readonly script: Uint8Array;
}

/** An address for the wallet's network, normalised (bech32 read upper-case from a QR is lowered). */
export const checkDestination = (
  input: string,
  network: Network,
): Destination | InvalidInput | WrongNetwork => {
  const trimmed = input.trim();
  const address = trimmed === trimmed.toUpperCase() ? trimmed.toLowerCase() : trimmed;
  const networks = addressNetworks(address);
  if (!networks) return addressNotRecognised();
  if (!networks.includes(network)) {
    const theirs = networks[0]!;
    return new WrongNetwork({
      message: `Destination is for ${theirs} but you're on ${network}`,
      key: "payment_request.wrong_network",
      values: { destination: theirs, wallet: network },
    });
  }
  try {
    return { address, script: scriptFor(address, network) };
  } catch {
    return addressNotRecognised();
  }
};

const tooMuch = () =>
  new InvalidInput({
    message: "There are only 21 million bitcoin.",
    key: "receive.amount_editable.more_than_21m",
  });
const tooLittle = () =>
  new InvalidInput({
    message: "The minimum on-chain amount is 546 sats.",
    key: "receive.error_under_min_onchain",
  });

/** An amount to send on-chain: above zero, at least 546 sats, at most the 21-million threshold. */
export const checkSendAmount = (amount: bigint): InvalidInput | null => {
  if (amount <= 0n)
    return new InvalidInput({ message: "The amount must be more than zero.", key: "send.error_amount_zero" });
  if (amount < MIN_ONCHAIN_SATS) return tooLittle();
  if (amount > MAX_ONCHAIN_SATS) return tooMuch();
  return null;
};

/** An amount to ask for on-chain; none at all is allowed (the payer chooses). */
export const checkReceiveAmount = (amount: bigint | null): InvalidInput | null => {
  if (amount === null) return null;
  if (amount < MIN_ONCHAIN_SATS) return tooLittle();
  if (amount > MAX_ONCHAIN_SATS) return tooMuch();
  return null;
};
