/**
 * The world's lightning-address service ("Hermes"): Plus members reserve a name and are paid at
 * name@<world host> (LUD-16 over LUD-06, NIP-57 allowsNostr). When a payer asks for an invoice the service
 * gets one from the member's own wallet over its wallet-connect connection (`make_invoice` with
 * @getalby/sdk's NWC client), so the money lands in the member's channel.
 *
 * When the wallet does not answer within a short bound (its tab is closed), the payment goes to the mint the
 * member chose when reserving: the service asks that mint for a quote (NUT-04, with cashu-ts's `Wallet`;
 * the world's mint takes the hash the invoice commits to, so it still matches the LUD-06 metadata or the
 * zap request) and hands its invoice to the payer; once paid, it mints the ecash and sends the token (cashuB, the payer's note
 * as its memo) to the member's nostr key as a NIP-17 message on the world's relay, where the wallet reads and
 * redeems it at its next start. The service holds the ecash only until the relay accepted the message.
 *
 *   GET  /.well-known/lnurlp/<name>          LUD-16 pay request
 *   GET  /hermes/pay/<name>?amount=…         LUD-06 callback: {pr, routes: []}
 *   GET  /hermes/names/check?name=…          {available}
 *   POST /hermes/names {name, mint?, pubkey?} (NIP-98)
 *                                            reserve: {name, service} or 'Name already taken'; `mint` (a mint's
 *                                            URL) and `pubkey` (the member's nostr key, hex) are where payments
 *                                            go while the wallet is not reachable
 *   GET  /hermes/names/mine     (NIP-98)     {name, mint, pubkey, service} (name null when none; `service`
 *                                            is the key the service signs its messages and zap receipts with)
 *   GET  /hermes/tokens?name=…               the operator's view: the tokens sent for `name` as messages
 *                                            [{amount_sat, wrap_id}] (tests wait on it)
 */
import type { IncomingHttpHeaders } from "node:http";
import { sha256 } from "@noble/hashes/sha2.js";
import { hex, utf8 } from "@scure/base";
import { NWCClient } from "@getalby/sdk/nwc";
import { getEncodedToken, type MintQuoteBolt11Request, Wallet } from "@cashu/cashu-ts";
import { wrapEvent } from "nostr-tools/nip17";
import { makeZapReceipt, validateZapRequest } from "nostr-tools/nip57";
import { SimplePool } from "nostr-tools/pool";
import { finalizeEvent, getPublicKey } from "nostr-tools/pure";
import { decodeBolt11 } from "../../src/engine/parse/bolt11";
import { type Fallback, memoryNameBook, type NameBook } from "./names";
import { lnurlError } from "../http-json";
import { nip98Signer } from "../plus/terms";
import { HttpError, parseJson, type RouteTable, schemeOf } from "../http";

/** Spec 2 §5: not empty; lowercase letters, digits, dash, underscore and dot only. */
export const NAME_RULE = /^[a-z0-9._-]+$/;
export const MAX_NAME = 64;
const MIN_MSAT = 1_000n;
const MAX_MSAT = 1_000_000_000n;
const COMMENT_ALLOWED = 144;
/**
 * How long a payer's request waits for the member's wallet to make its invoice before the payment goes to
 * the member's mint instead (the wallet's tab is closed, or its relay connection is down).
 */
export const WALLET_TIMEOUT_MS = 8_000;
/** How long an offline payment's mint quote is watched for its payment, and how often. */
const QUOTE_WATCH_MS = 60 * 60_000;
const QUOTE_POLL_MS = 1_000;

/** The mint and nostr key a reservation names for offline payments; both or neither. */
const fallbackOf = (mint: unknown, pubkey: unknown): Fallback | null => {
  if ((mint === undefined || mint === null) && (pubkey === undefined || pubkey === null)) return null;
  if (typeof pubkey !== "string" || !/^[0-9a-f]{64}$/.test(pubkey))
    throw new HttpError(400, "pubkey must be a nostr public key (hex)");
  if (typeof mint !== "string" || mint.length > 300) throw new HttpError(400, "mint must be a mint's URL");
  let url: URL;
  try {
    url = new URL(mint);
  } catch {
    throw new HttpError(400, "mint must be a mint's URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new HttpError(400, "mint must be a mint's URL");
  return { mint: mint.replace(/\/+$/, ""), pubkey };
};

export const nameProblem = (name: string): string | null =>
  name.length === 0
    ? "Name is required"
    : name.length > MAX_NAME || !NAME_RULE.test(name)
      ? "Only lowercase letters, digits, dash, underscore and dot"
      : null;

export interface HermesPayment {
  readonly name: string;
  readonly msat: bigint;
  readonly comment: string | null;
  readonly zap: boolean;
  readonly bolt11: string;
  /** The wallet did not answer: the invoice is the member's mint's, and the ecash goes out as a token. */
  readonly offline: boolean;
}

/** An offline payment's token, sent to the member as a NIP-17 message (the gift wrap's id). */
export interface HermesToken {
  readonly name: string;
  readonly bolt11: string;
  readonly amountSats: bigint;
  readonly wrapId: string;
}

export interface HermesService {
  readonly routes: RouteTable;
  readonly nostrPubkey: string;
  /** Invoices handed to payers, newest last. */
  readonly payments: () => readonly HermesPayment[];
  readonly nameOf: (pubkey: string) => Promise<string | null>;
  /** Zap receipts published (NIP-57), newest last. */
  readonly receipts: () => readonly { id: string; bolt11: string }[];
  /** Tokens of offline payments sent to their members, newest last. */
  readonly tokens: () => readonly HermesToken[];
  readonly stop: () => void;
}

export interface HermesOptions {
  /** The relay the service's NIP-17 messages go to (the world's). */
  readonly relayUrl: string;
  readonly walletTimeoutMs?: number;
  /** Who holds which name: in memory unless given (the services keep it in their database). */
  readonly names?: NameBook;
  /** The key the service signs its messages and zap receipts with (32 bytes); the world's fixed one if unset. */
  readonly secret?: Uint8Array;
  /** Serve the operator's view of the tokens sent (`GET /hermes/tokens`, tests wait on it). */
  readonly operatorView?: boolean;
}

/** The most payments, tokens and receipts remembered (a long-running service forgets the oldest). */
const KEEP = 1_000;
const keep = <T>(list: T[], item: T) => {
  list.push(item);
  if (list.length > KEEP) list.shift();
};

/** How long a zap's invoice is watched for its payment, and how often. */
const ZAP_WATCH_MS = 10 * 60_000;
const ZAP_POLL_MS = 1_000;

/** Who is a Plus member, and the wallet-connect connection their invoices come from (null when not one). */
export interface Membership {
  readonly isMember: (pubkey: string) => boolean | Promise<boolean>;
  readonly nwcOf: (pubkey: string) => string | null | Promise<string | null>;
}

export const startHermes = (plus: Membership, opts: HermesOptions): HermesService => {
  const book = opts.names ?? memoryNameBook();
  const payments: HermesPayment[] = [];
  const tokens: HermesToken[] = [];
  const walletTimeoutMs = opts.walletTimeoutMs ?? WALLET_TIMEOUT_MS;
  const zapSecret = opts.secret ?? sha256(utf8.decode("hermes zap receipts of the local world"));
  const nostrPubkey = getPublicKey(zapSecret);
  const receipts: { id: string; bolt11: string }[] = [];
  const pool = new SimplePool();
  let stopped = false;

  /**
   * NIP-57: once the member's wallet says the zap's invoice is settled (lookup_invoice over the same
   * connection), a zap receipt signed with the service's key goes to the relays the zap request named.
   */
  const watchZap = async (nwc: string, bolt11: string, zapRequest: string, relays: string[]) => {
    const hash = decodeBolt11(bolt11)?.paymentHash;
    if (!hash) return;
    const client = new NWCClient({ nostrWalletConnectUrl: nwc });
    const end = Date.now() + ZAP_WATCH_MS;
    try {
      while (!stopped && Date.now() < end) {
        await new Promise((r) => setTimeout(r, ZAP_POLL_MS));
        const tx = await client.lookupInvoice({ payment_hash: hash }).catch(() => null);
        if (tx?.state !== "settled") continue;
        const receipt = finalizeEvent(
          makeZapReceipt({
            zapRequest,
            preimage: tx.preimage || undefined,
            bolt11,
            paidAt: new Date((tx.settled_at || Math.floor(Date.now() / 1000)) * 1000),
          }),
          zapSecret,
        );
        await Promise.allSettled(pool.publish(relays, receipt));
        keep(receipts, { id: receipt.id, bolt11 });
        return;
      }
    } finally {
      client.close();
    }
  };

  const metadataOf = (name: string, host: string) =>
    JSON.stringify([
      ["text/plain", `Payment to ${name}@${host}`],
      ["text/identifier", `${name}@${host}`],
    ]);

  const hostOf = (headers: IncomingHttpHeaders | undefined) => headers?.host ?? "127.0.0.1";

  /** cashu-ts wallets by mint URL, their keys loaded once. */
  const mintWallets = new Map<string, Promise<Wallet>>();
  const mintWallet = (url: string) => {
    let w = mintWallets.get(url);
    if (!w) {
      const wallet = new Wallet(url, { unit: "sat" });
      w = wallet.loadMint().then(() => wallet);
      w.catch(() => mintWallets.delete(url));
      mintWallets.set(url, w);
    }
    return w;
  };

  /** Publishes `event` to the world's relay, again until it is accepted (the ecash is in it). */
  const publishUntilAccepted = async (event: Parameters<SimplePool["publish"]>[1]) => {
    for (let attempt = 0; !stopped; attempt++) {
      try {
        await Promise.any(pool.publish([opts.relayUrl], event));
        return true;
      } catch {
        await new Promise((r) => setTimeout(r, Math.min(30_000, 500 * 2 ** attempt)));
      }
    }
    return false;
  };

  /**
   * The wallet did not answer: a quote of the member's mint for the amount, whose invoice the payer pays;
   * once the mint says it is paid, the ecash is minted and sent to the member as a token in a NIP-17 message.
   */
  const receiveOffline = async (
    name: string,
    to: Fallback,
    sats: bigint,
    note: string,
    hash: string,
    zap: { request: string; relays: string[] } | null,
  ) => {
    const wallet = await mintWallet(to.mint);
    // The world's mint takes the hash the invoice commits to (LUD-06 metadata or the zap request).
    const quote = await wallet.mint.createMintQuoteBolt11({
      unit: "sat",
      amount: Number(sats),
      description_hash: hash,
    } as MintQuoteBolt11Request);
    const watch = async () => {
      const end = Date.now() + QUOTE_WATCH_MS;
      while (!stopped && Date.now() < end) {
        await new Promise((r) => setTimeout(r, QUOTE_POLL_MS));
        const state = await wallet.checkMintQuoteBolt11(quote.quote).then(
          (q) => q.state,
          () => null,
        );
        if (state !== "PAID") continue;
        const proofs = await wallet.mintProofsBolt11(Number(sats), quote.quote);
        const token = getEncodedToken({ mint: to.mint, proofs, unit: "sat", memo: note });
        const wrap = wrapEvent(
          zapSecret,
          { publicKey: to.pubkey, relayUrl: opts.relayUrl },
          `Payment to ${name}: ${note}\n\n${token}`,
        );
        if (await publishUntilAccepted(wrap))
          keep(tokens, { name, bolt11: quote.request, amountSats: sats, wrapId: wrap.id });
        if (zap) {
          // NIP-57: the receipt without a preimage (the mint, not the service, holds it).
          const receipt = finalizeEvent(
            makeZapReceipt({ zapRequest: zap.request, bolt11: quote.request, paidAt: new Date() }),
            zapSecret,
          );
          await Promise.allSettled(pool.publish(zap.relays, receipt));
          keep(receipts, { id: receipt.id, bolt11: quote.request });
        }
        return;
      }
    };
    void watch().catch(() => undefined);
    return quote.request;
  };

  const makeInvoice = async (nwc: string, msat: bigint, description: string, hash: string) => {
    const client = new NWCClient({ nostrWalletConnectUrl: nwc });
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const made = await Promise.race([
        client.makeInvoice({ amount: Number(msat), description, description_hash: hash }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("The wallet did not answer")), walletTimeoutMs);
        }),
      ]);
      return made.invoice;
    } finally {
      clearTimeout(timer);
      client.close();
    }
  };

  const operator: RouteTable = [
    [
      "GET",
      /^\/hermes\/tokens$/,
      (_m, _b, _h, query) => ({
        json: tokens
          .filter((t) => t.name === (query?.get("name") ?? ""))
          .map((t) => ({ amount_sat: Number(t.amountSats), wrap_id: t.wrapId })),
      }),
    ],
  ];
  const routes: RouteTable = [
    ...(opts.operatorView === false ? [] : operator),
    [
      "GET",
      /^\/\.well-known\/lnurlp\/([^/]{1,100})$/,
      async (m, _b, headers) => {
        const name = decodeURIComponent(m[1]!).toLowerCase();
        const host = hostOf(headers);
        if (!(await book.ownerOf(name)))
          return { status: 404, json: { status: "ERROR", reason: "Unknown name" } };
        return {
          json: {
            tag: "payRequest",
            callback: `${schemeOf(headers)}://${host}/hermes/pay/${name}`,
            minSendable: Number(MIN_MSAT),
            maxSendable: Number(MAX_MSAT),
            metadata: metadataOf(name, host),
            commentAllowed: COMMENT_ALLOWED,
            allowsNostr: true,
            nostrPubkey,
          },
        };
      },
    ],
    [
      "GET",
      /^\/hermes\/pay\/([^/]{1,100})$/,
      async (m, _b, headers, query) => {
        const name = decodeURIComponent(m[1]!).toLowerCase();
        const owner = await book.ownerOf(name);
        const fail = (reason: string) => ({ json: lnurlError(reason).json });
        if (!owner) return fail("Unknown name");
        const amount = query?.get("amount") ?? "";
        if (!/^\d{1,15}$/.test(amount)) return fail("amount is required, in millisatoshis");
        const msat = BigInt(amount);
        if (msat < MIN_MSAT || msat > MAX_MSAT || msat % 1000n !== 0n)
          return fail(`Amount must be whole sats between ${MIN_MSAT} and ${MAX_MSAT} millisatoshis`);
        const comment = query?.get("comment") ?? null;
        if (comment !== null && comment.length > COMMENT_ALLOWED)
          return fail(`Comments may be at most ${COMMENT_ALLOWED} characters`);
        const zapRequest = query?.get("nostr") ?? null;
        let zapRelays: string[] = [];
        if (zapRequest !== null) {
          if (zapRequest.length > 10_000) return fail("The zap request is too large");
          const problem = validateZapRequest(zapRequest);
          if (problem) return fail(problem);
          const z = JSON.parse(zapRequest) as { kind: number; tags: string[][] };
          if (z.kind !== 9734) return fail("nostr must be a zap request event (kind 9734)");
          const asked = z.tags.find((t) => t[0] === "amount")?.[1];
          if (asked !== undefined && asked !== amount) return fail("The zap request's amount differs");
          zapRelays = (z.tags.find((t) => t[0] === "relays") ?? [])
            .slice(1)
            .filter((r) => /^wss?:\/\//.test(r))
            .slice(0, 5);
        }
        const zap = zapRequest !== null;
        const zapNote = zapRequest !== null ? (JSON.parse(zapRequest) as { content: string }).content : "";
        const nwc = await plus.nwcOf(owner);
        if (!nwc) return fail("This address's owner is not a member");
        // LUD-06: the invoice commits to the metadata (NIP-57: to the zap request).
        const hash = hex.encode(sha256(utf8.decode(zapRequest ?? metadataOf(name, hostOf(headers)))));
        const note = comment ?? (zapNote || `Payment to ${name}`);
        let problem: unknown;
        try {
          const bolt11 = await makeInvoice(nwc, msat, note, hash);
          keep(payments, { name, msat, comment, zap, bolt11, offline: false });
          if (zapRequest !== null) void watchZap(nwc, bolt11, zapRequest, zapRelays).catch(() => undefined);
          return { json: { pr: bolt11, routes: [] } };
        } catch (e) {
          problem = e;
        }
        const fallback = (await book.reservationOf(owner))?.fallback;
        if (fallback) {
          try {
            const bolt11 = await receiveOffline(
              name,
              fallback,
              msat / 1000n,
              note,
              hash,
              zapRequest === null ? null : { request: zapRequest, relays: zapRelays },
            );
            keep(payments, { name, msat, comment, zap, bolt11, offline: true });
            return { json: { pr: bolt11, routes: [] } };
          } catch (e) {
            problem = e;
          }
        }
        return fail(
          `The wallet behind this address is not reachable: ${problem instanceof Error ? problem.message : problem}`,
        );
      },
    ],
    [
      "GET",
      /^\/hermes\/names\/check$/,
      async (_m, _b, _h, query) => {
        const name = query?.get("name") ?? "";
        const problem = nameProblem(name);
        if (problem) throw new HttpError(400, problem);
        return { json: { available: (await book.ownerOf(name)) === null } };
      },
    ],
    [
      "POST",
      /^\/hermes\/names$/,
      async (_m, body, headers) => {
        const pubkey = await nip98Signer("/hermes/names", "post", headers);
        const b = parseJson(body);
        const name = typeof b.name === "string" ? b.name : "";
        const problem = nameProblem(name);
        if (problem) throw new HttpError(400, problem);
        const owner = await book.ownerOf(name);
        if (owner && owner !== pubkey) throw new HttpError(409, "Name already taken");
        if (!(await plus.isMember(pubkey))) throw new HttpError(403, "Plus membership is required");
        const fallback = fallbackOf(b.mint, b.pubkey);
        if (!(await book.reserve(pubkey, name, fallback))) throw new HttpError(409, "Name already taken");
        return { json: { name, service: nostrPubkey } };
      },
    ],
    [
      "GET",
      /^\/hermes\/names\/mine$/,
      async (_m, _b, headers) => {
        const pubkey = await nip98Signer("/hermes/names/mine", "get", headers);
        const held = await book.reservationOf(pubkey);
        const fallback = held?.fallback;
        return {
          json: {
            name: held?.name ?? null,
            mint: fallback?.mint ?? null,
            pubkey: fallback?.pubkey ?? null,
            service: nostrPubkey,
          },
        };
      },
    ],
  ];

  return {
    routes,
    nostrPubkey,
    payments: () => [...payments],
    nameOf: async (pubkey) => (await book.reservationOf(pubkey))?.name ?? null,
    receipts: () => [...receipts],
    tokens: () => [...tokens],
    stop: () => {
      stopped = true;
      pool.destroy();
    },
  };
};
