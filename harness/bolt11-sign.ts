/**
 * Writes signed BOLT11 invoices (regtest) for tests of services that hand invoices out: amount, payment
 * hash, payment secret, description hash, expiry, signed by the given node key.
 */
import { randomBytes } from "node:crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { encodeInvoice, field, INVOICE_PREFIX } from "../src/engine/lightning/bolt11-encode";

export const signInvoice = (opts: {
  msat: bigint;
  descriptionHash: Uint8Array;
  nodeKey?: Uint8Array;
  paymentHash?: Uint8Array;
  timestamp?: number;
  expirySeconds?: number;
}): string =>
  encodeInvoice({
    prefix: INVOICE_PREFIX.regtest,
    amountMsat: opts.msat,
    timestamp: opts.timestamp ?? Math.floor(Date.now() / 1000),
    secretKey: opts.nodeKey ?? secp256k1.utils.randomSecretKey(),
    fields: [
      field.paymentHash(opts.paymentHash ?? randomBytes(32)),
      field.paymentSecret(randomBytes(32)),
      field.descriptionHash(opts.descriptionHash),
      field.expiry(opts.expirySeconds ?? 3600),
    ],
  });
