/**
 * The world's LNURL service speaks NIP-57: its pay offers allow nostr, it takes a zap request made by an
 * outside client (nostr-tools' nip57), commits the invoice to it, and publishes a zap receipt once the
 * invoice is paid, which nostr-tools validates as a client would.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { hex, utf8 } from "@scure/base";
import { makeZapRequest, validateZapRequest } from "nostr-tools/nip57";
import {
  finalizeEvent,
  generateSecretKey,
  getPublicKey,
  type VerifiedEvent,
  verifyEvent,
} from "nostr-tools/pure";
import { beforeAll, describe, expect, it } from "vitest";
import { decodeBolt11 } from "../src/engine/parse/bolt11";
import { type LnurlService, startZapService } from "./lnurl";
import { stopAfterAll } from "./stop-after-all";

const serviceKey = generateSecretKey();
const published: VerifiedEvent[] = [];
const paid = new Map<string, () => void>();
let service: LnurlService;

beforeAll(async () => {
  service = await startZapService(serviceKey, paid, (receipt) => void published.push(receipt));
  service.addPay({ name: "zoe", minSendable: 1_000n, maxSendable: 10_000_000n, description: "Zoe's tips" });
});
stopAfterAll(() => [service]);

const getJson = async (url: string) => (await fetch(url)).json() as Promise<Record<string, unknown>>;

describe("NIP-57 zaps on the world's LNURL service", () => {
  it("allows nostr, commits the invoice to the zap request, and publishes a valid receipt once paid", async () => {
    const offer = await getJson(`${service.base}/.well-known/lnurlp/zoe`);
    expect(offer).toMatchObject({ allowsNostr: true, nostrPubkey: getPublicKey(serviceKey) });

    const sender = generateSecretKey();
    const recipient = getPublicKey(generateSecretKey());
    const request = finalizeEvent(
      makeZapRequest({
        pubkey: recipient,
        amount: 21_000,
        comment: "great post",
        relays: ["ws://127.0.0.1:1/nostr"],
      }),
      sender,
    );
    const requestJson = JSON.stringify(request);
    expect(validateZapRequest(requestJson)).toBeNull();

    const callback = new URL(String(offer.callback));
    callback.searchParams.set("amount", "21000");
    callback.searchParams.set("nostr", requestJson);
    const { pr } = await getJson(callback.href);
    const invoice = decodeBolt11(String(pr));
    expect(invoice?.descriptionHash).toBe(hex.encode(sha256(utf8.decode(requestJson))));
    expect(published).toHaveLength(0);

    paid.get(invoice?.paymentHash ?? "")?.();
    await expect.poll(() => published.length).toBe(1);
    const receipt = published[0];
    if (!receipt) throw new Error("no receipt");
    expect(verifyEvent(receipt)).toBe(true);
    expect(receipt.kind).toBe(9735);
    expect(receipt.pubkey).toBe(getPublicKey(serviceKey));
    const tag = (name: string) => receipt.tags.find((t) => t[0] === name)?.[1];
    expect(tag("p")).toBe(recipient);
    expect(tag("bolt11")).toBe(pr);
    expect(tag("description")).toBe(requestJson);
    expect(validateZapRequest(tag("description") ?? "")).toBeNull();
  });

  it("refuses a zap request that is not valid or asks another amount", async () => {
    const sender = generateSecretKey();
    const recipient = getPublicKey(generateSecretKey());
    const request = finalizeEvent(
      makeZapRequest({ pubkey: recipient, amount: 5_000, relays: ["ws://x/"] }),
      sender,
    );
    const ask = async (nostr: string, amount: string) => {
      const u = new URL(`${service.base}/lnurlp/zoe/callback`);
      u.searchParams.set("amount", amount);
      u.searchParams.set("nostr", nostr);
      return getJson(u.href);
    };
    expect(await ask(JSON.stringify(request), "6000")).toMatchObject({ status: "ERROR" });
    expect(await ask(JSON.stringify({ ...request, sig: "00".repeat(64) }), "5000")).toMatchObject({
      status: "ERROR",
    });
    expect(await ask("not json", "5000")).toMatchObject({ status: "ERROR" });
  });
});
