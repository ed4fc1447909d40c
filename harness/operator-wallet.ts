/**
 * An operator's lightning wallet reachable over wallet-connect (NIP-47, @getalby/sdk's wallet service on the
 * world's relay), backed by the world's LSP node: what an operator of the wallet's own services points Plus at
 * (`PLUS_NWC`) to be paid. It makes invoices and says whether they were paid; it pays nothing unless told
 * (`pays`: a member's wallet in a test, charged a renewal).
 *
 *   GET /ln/operator-nwc    {uri}: a connection to it (started on the first call)
 */
import { hex } from "@scure/base";
import { NWCWalletService, NWCWalletServiceKeyPair } from "@getalby/sdk/nwc";
import { getPublicKey } from "nostr-tools/pure";
import { installRelaySocket } from "../services/nostr/socket";
import type { HarnessNode } from "./lightning";
import type { RouteTable } from "../services/http";

// Node 20 has no global WebSocket: the relay connections use one that a stalled handshake cannot crash.
installRelaySocket();

export interface OperatorWallet {
  readonly uri: string;
  readonly stop: () => void;
}

export const startOperatorWallet = async (
  node: HarnessNode,
  relayUrl: string,
  opts: { pays?: boolean | "claims-only" } = {},
): Promise<OperatorWallet> => {
  const walletSecret = hex.encode(crypto.getRandomValues(new Uint8Array(32)));
  const clientSecret = hex.encode(crypto.getRandomValues(new Uint8Array(32)));
  const service = new NWCWalletService({ relayUrls: [relayUrl] });
  const created = new Map<string, { bolt11: string; amountMsat: number; description: string; at: number }>();
  const transaction = (paymentHash: string) => {
    const c = created.get(paymentHash);
    if (!c) return null;
    const paid = node.events.some((e) => e.type === "payment_received" && e.paymentHash === paymentHash);
    return {
      type: "incoming" as const,
      state: paid ? ("settled" as const) : ("pending" as const),
      invoice: c.bolt11,
      description: c.description,
      description_hash: "",
      preimage: "",
      payment_hash: paymentHash,
      amount: c.amountMsat,
      fees_paid: 0,
      settled_at: paid ? Math.floor(Date.now() / 1000) : 0,
      created_at: c.at,
      expires_at: c.at + 3600,
    };
  };
  const methods = ["make_invoice", "lookup_invoice", ...(opts.pays ? ["pay_invoice" as const] : [])] as const;
  await service.publishWalletServiceInfoEvent(walletSecret, [...methods], []);
  const unsubscribe = await service.subscribe(
    new NWCWalletServiceKeyPair(walletSecret, getPublicKey(hex.decode(clientSecret))),
    {
      makeInvoice: async (request) => {
        const { bolt11, paymentHash } = node.node.createInvoice(
          BigInt(request.amount),
          request.description ?? "",
          request.expiry,
        );
        const at = Math.floor(Date.now() / 1000);
        created.set(paymentHash, {
          bolt11,
          amountMsat: request.amount,
          description: request.description ?? "",
          at,
        });
        return { result: transaction(paymentHash)!, error: undefined };
      },
      ...(opts.pays
        ? {
            payInvoice: async (request: { invoice: string }) => {
              if (opts.pays === "claims-only")
                return {
                  result: { preimage: hex.encode(crypto.getRandomValues(new Uint8Array(32))), fees_paid: 0 },
                  error: undefined,
                };
              const r = await node.node.payInvoice(request.invoice, 1_000_000n);
              return r.status === "succeeded"
                ? { result: { preimage: r.preimage, fees_paid: Number(r.feeMsat) }, error: undefined }
                : { result: undefined, error: { code: "PAYMENT_FAILED", message: r.status } };
            },
          }
        : {}),
      lookupInvoice: async (request) => {
        const found = request.payment_hash ? transaction(request.payment_hash) : null;
        return found
          ? { result: found, error: undefined }
          : { result: undefined, error: { code: "NOT_FOUND", message: "No such invoice" } };
      },
    },
  );
  const walletPubkey = getPublicKey(hex.decode(walletSecret));
  return {
    uri: `nostr+walletconnect://${walletPubkey}?relay=${encodeURIComponent(relayUrl)}&secret=${clientSecret}`,
    stop: () => {
      unsubscribe();
      service.close();
    },
  };
};

/** The world's route to the operator's wallet, started on its first call. */
export const operatorWalletRoutes = (start: () => Promise<OperatorWallet>): RouteTable => {
  let wallet: Promise<OperatorWallet> | null = null;
  return [
    [
      "GET",
      /^\/ln\/operator-nwc$/,
      async () => {
        wallet ??= start();
        wallet.catch(() => {
          wallet = null;
        });
        return { json: { uri: (await wallet).uri } };
      },
    ],
  ];
};
