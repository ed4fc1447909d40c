/**
 * Wallets online over wallet-connect (NIP-47) for `npm run bench:services`: each its own wallet key, its own
 * connection to the relay and its own node key, built with nostr-tools (an outside client, not the wallet's
 * code). Each publishes its info event (NIP-44 encryption) and answers `make_invoice` with a BOLT11 invoice it
 * signs for the amount and description hash asked (bench/bolt11-sign.ts), and `lookup_invoice` for the ones
 * it made: pending, or settled when it is `settles` (the operator's wallet of a bench, whose subscribe
 * invoices count as paid so members join without moving money).
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { hex } from "@scure/base";
import { decrypt, encrypt, getConversationKey } from "nostr-tools/nip44";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { Relay, useWebSocketImplementation as relaysUse } from "nostr-tools/relay";
import WebSocket from "ws";
import { signedInvoice } from "./bolt11-sign";

// Node 20 has no global WebSocket.
relaysUse(WebSocket);

export interface NwcWallet {
  /** The connection a member hands the services: its client secret is `clientSecret`. */
  readonly uri: string;
  readonly clientSecret: Uint8Array;
  /** Invoices made so far. */
  readonly made: () => number;
  readonly close: () => void;
}

/** One wallet online on `relayUrl`; `clientSecret` is the member's own nostr key when the services check it. */
export const startNwcWallet = async (
  relayUrl: string,
  opts: { clientSecret?: Uint8Array; settles?: boolean } = {},
): Promise<NwcWallet> => {
  const walletSecret = generateSecretKey();
  const walletPubkey = getPublicKey(walletSecret);
  const clientSecret = opts.clientSecret ?? generateSecretKey();
  const clientPubkey = getPublicKey(clientSecret);
  const nodeSecret = secp256k1.utils.randomSecretKey();
  const key = getConversationKey(walletSecret, clientPubkey);
  const invoices = new Map<string, { bolt11: string; msat: number; preimage: string; at: number }>();
  const relay = await Relay.connect(relayUrl);
  const reply = (requestId: string, body: unknown) =>
    relay.publish(
      finalizeEvent(
        {
          kind: 23195,
          created_at: Math.floor(Date.now() / 1000),
          tags: [
            ["p", clientPubkey],
            ["e", requestId],
            ["encryption", "nip44_v2"],
          ],
          content: encrypt(JSON.stringify(body), key),
        },
        walletSecret,
      ),
    );
  const answer = (method: string, params: Record<string, unknown>) => {
    if (method === "make_invoice") {
      const msat = Number(params.amount);
      const inv = signedInvoice(
        nodeSecret,
        BigInt(msat),
        typeof params.description_hash === "string" && params.description_hash !== ""
          ? params.description_hash
          : null,
        String(params.description ?? ""),
      );
      const at = Math.floor(Date.now() / 1000);
      invoices.set(inv.paymentHash, { bolt11: inv.bolt11, msat, preimage: inv.preimage, at });
      return transaction(inv.paymentHash);
    }
    if (method === "lookup_invoice") {
      const tx = transaction(String(params.payment_hash ?? ""));
      if (tx) return tx;
      throw { code: "NOT_FOUND", message: "No such invoice" };
    }
    throw { code: "NOT_IMPLEMENTED", message: `${method} is not offered` };
  };
  const transaction = (paymentHash: string) => {
    const i = invoices.get(paymentHash);
    if (!i) return null;
    return {
      type: "incoming",
      state: opts.settles ? "settled" : "pending",
      invoice: i.bolt11,
      description: "",
      description_hash: "",
      preimage: opts.settles ? i.preimage : "",
      payment_hash: paymentHash,
      amount: i.msat,
      fees_paid: 0,
      created_at: i.at,
      expires_at: i.at + 3600,
      settled_at: opts.settles ? i.at : 0,
    };
  };
  await relay.publish(
    finalizeEvent(
      {
        kind: 13194,
        created_at: Math.floor(Date.now() / 1000),
        tags: [["encryption", "nip44_v2"]],
        content: "make_invoice lookup_invoice",
      },
      walletSecret,
    ),
  );
  const since = Math.floor(Date.now() / 1000) - 5;
  const sub = relay.subscribe([{ kinds: [23194], "#p": [walletPubkey], authors: [clientPubkey], since }], {
    onevent: (event) => {
      let method = "";
      try {
        const request = JSON.parse(decrypt(event.content, key)) as {
          method: string;
          params: Record<string, unknown>;
        };
        method = request.method;
        void reply(event.id, { result_type: method, result: answer(method, request.params ?? {}) });
      } catch (e) {
        const error =
          e && typeof e === "object" && "code" in e ? e : { code: "INTERNAL", message: String(e) };
        void reply(event.id, { result_type: method, error }).catch(() => undefined);
      }
    },
  });
  return {
    uri: `nostr+walletconnect://${walletPubkey}?relay=${encodeURIComponent(relayUrl)}&secret=${hex.encode(clientSecret)}`,
    clientSecret,
    made: () => invoices.size,
    close: () => {
      sub.close();
      relay.close();
    },
  };
};
