/**
 * A public zap to a contact (NIP-57) through the wallet's host: the pay service is the world's LNURL service
 * with zaps on; the zap request the wallet signs is validated by an outside client (nostr-tools'
 * `nip57.validateZapRequest`), and the receipt the service publishes once paid is checked against it.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { makeZapReceipt, makeZapRequest, validateZapRequest } from "nostr-tools/nip57";
import {
  finalizeEvent,
  generateSecretKey,
  getPublicKey,
  type VerifiedEvent,
  verifyEvent,
} from "nostr-tools/pure";
import { serveNostr } from "../../../harness/nostr/standalone";
import type { NostrWorld } from "../../../harness/nostr/world";
import { readEvents } from "../../events/log";
import { foldEvents } from "../../projections";
import { npubEncode } from "nostr-tools/nip19";
import { beforeAll, describe, expect, it } from "vitest";
import { base64, bech32, utf8 } from "@scure/base";
import type { FriendZap } from "../../projections/zaps";
import * as nip04 from "nostr-tools/nip04";
import { seedSecretKey } from "../../engine/nostr/keys";
import { openPrivateZap, privateZapKey } from "../../engine/nostr/zap-request";
import { signInvoice } from "../../../harness/bolt11-sign";
import { type LnurlService, startZapService } from "../../../harness/lnurl";
import type { WalletConfig } from "../../config";
import { decodeBolt11 } from "../../engine/parse/bolt11";
import { WalletDb } from "../../events/db";
import type { LnurlOffer } from "../command";
import { ok, openNostrHost, addContact } from "../host/host.testing";
import { offlineConfig } from "../offline.testing";
import { stopAfterAll } from "../../../harness/stop-after-all";
import { someone } from "../../../harness/nostr/people";

const serviceKey = generateSecretKey();
const receipts: VerifiedEvent[] = [];
const paid = new Map<string, () => void>();
let service: LnurlService;
let world: { nostr: NostrWorld; base: string; stop: () => Promise<void> };
beforeAll(async () => {
  world = await serveNostr();
  service = await startZapService(serviceKey, paid, (r) => {
    receipts.push(r);
    world.nostr.relay.publish(r);
  });
});
stopAfterAll(() => [service, world]);

const openHost = (db: WalletDb, primal = "") =>
  openNostrHost(db, {
    ...offlineConfig,
    nostr: { relays: [world.nostr.relayUrl], primal, blossom: "" },
  } satisfies WalletConfig);

describe("zaps to a contact", () => {
  it("signs a public zap request an outside client validates, and the published receipt matches it", async () => {
    const friend = getPublicKey(generateSecretKey());
    const { url, address } = service.addPay({
      name: "friend",
      minSendable: 1_000n,
      maxSendable: 100_000_000n,
      description: "Tips",
    });
    const db = new WalletDb(`zaps-${Date.now()}`);
    const host = await openHost(db);
    try {
      ok(await host.run({ _tag: "CreateWallet" }));
      const contactId = await addContact(host, {
        name: "Friend",
        npub: npubEncode(friend),
        ln_address: address,
      });
      const noNpub = await addContact(host, { name: "Plain", npub: "", ln_address: address });
      const offer = ok<LnurlOffer>(await host.run({ _tag: "DecodeLnurl", lnurl: url }));
      expect(offer.allowsNostr).toBe(true);

      expect(
        await host.run({
          _tag: "LnurlPayInvoice",
          lnurl: url,
          amountSats: 21n,
          comment: "",
          fingerprint: offer.fingerprint,
          zap: { contactId: noNpub },
        }),
      ).toMatchObject({ ok: false, error: { message: "Contact doesn't have a npub" } });

      const { npub } = ok<{ npub: string }>(await host.run({ _tag: "GetNpub" }));
      const answer = ok<{ bolt11: string; zapRequest: string | null }>(
        await host.run({
          _tag: "LnurlPayInvoice",
          lnurl: url,
          amountSats: 2_100n,
          comment: "for the coffee",
          fingerprint: offer.fingerprint,
          zap: { contactId },
        }),
      );
      const request = answer.zapRequest ?? "";
      expect(validateZapRequest(request)).toBeNull();
      const parsed = JSON.parse(request) as { pubkey: string; content: string; tags: string[][] };
      expect(npubEncode(parsed.pubkey)).toBe(npub);
      expect(parsed.content).toBe("for the coffee");
      expect(parsed.tags).toContainEqual(["p", friend]);
      expect(parsed.tags).toContainEqual(["amount", "2100000"]);
      expect(parsed.tags).toContainEqual(["relays", world.nostr.relayUrl]);
      // The service got exactly that request and no LUD-12 comment beside it.
      expect(service.invoices.at(-1)).toMatchObject({ name: "friend", msat: 2_100_000n, comment: null });

      // Not paid yet: no receipt. A forged one (another key, the same tags) does not make it a zap.
      expect(ok<{ confirmed: number }>(await host.run({ _tag: "CheckZaps" })).confirmed).toBe(0);
      const forged = finalizeEvent(
        makeZapReceipt({ zapRequest: request, bolt11: answer.bolt11, paidAt: new Date() }),
        generateSecretKey(),
      );
      world.nostr.relay.publish(forged);
      expect(ok<{ confirmed: number }>(await host.run({ _tag: "CheckZaps" })).confirmed).toBe(0);

      // Paid: the service's receipt names the contact, carries the invoice and the wallet's request.
      paid.get(decodeBolt11(answer.bolt11)?.paymentHash ?? "")?.();
      await expect.poll(() => receipts.length).toBe(1);
      const receipt = receipts[0] as VerifiedEvent;
      expect(verifyEvent(receipt)).toBe(true);
      expect(receipt.pubkey).toBe(getPublicKey(serviceKey));
      const tag = (n: string) => receipt.tags.find((t) => t[0] === n)?.[1];
      expect(tag("description")).toBe(request);
      expect(tag("bolt11")).toBe(answer.bolt11);
      expect(tag("p")).toBe(friend);
      expect(tag("P")).toBe(parsed.pubkey);
      // The same receipt as nostr-tools would make from the request and invoice.
      expect(makeZapReceipt({ zapRequest: request, bolt11: answer.bolt11, paidAt: new Date() }).tags).toEqual(
        expect.arrayContaining([
          ["p", friend],
          ["bolt11", answer.bolt11],
        ]),
      );

      // The wallet reads the receipt from the relay, checks it against its request, and records the zap.
      expect(ok<{ confirmed: number }>(await host.run({ _tag: "CheckZaps" })).confirmed).toBe(1);
      const hash = decodeBolt11(answer.bolt11)?.paymentHash ?? "";
      const events = await readEvents(db);
      expect(events.filter((e) => e.type === "zap.confirmed").map((e) => e.payload)).toEqual([
        { paymentHash: hash, receipt: receipt.id },
      ]);
      expect(foldEvents(events).chat.zaps.get(hash)?.confirmed).toBe(true);
      expect(ok<{ confirmed: number }>(await host.run({ _tag: "CheckZaps" })).confirmed).toBe(0);

      // Without a zap the same service is paid the plain LNURL way.
      const plain = ok<{ zapRequest: string | null }>(
        await host.run({
          _tag: "LnurlPayInvoice",
          lnurl: url,
          amountSats: 50n,
          comment: "",
          fingerprint: offer.fingerprint,
        }),
      );
      expect(plain.zapRequest).toBeNull();
    } finally {
      await host.stop();
    }
  }, 60_000);

  it("makes private and anonymous zap requests an outside client validates, and their receipts match", async () => {
    const { secret: friendSecret, pubkey: friend } = someone();
    const { url, address } = service.addPay({
      name: "quiet",
      minSendable: 1_000n,
      maxSendable: 100_000_000n,
      description: "Quiet tips",
    });
    const db = new WalletDb(`zaps-private-${Date.now()}`);
    const host = await openHost(db);
    try {
      ok(await host.run({ _tag: "CreateWallet" }));
      const { words } = ok<{ words: string[] }>(await host.run({ _tag: "ShowSeed" }));
      const walletSecret = seedSecretKey(words.join(" "));
      const wallet = getPublicKey(walletSecret);
      const contactId = await addContact(host, {
        name: "Quiet",
        npub: npubEncode(friend),
        ln_address: address,
      });
      const offer = ok<LnurlOffer>(await host.run({ _tag: "DecodeLnurl", lnurl: url }));
      const zap = async (privacy: "Private" | "Anonymous", amountSats: bigint, comment: string) =>
        ok<{ bolt11: string; zapRequest: string | null }>(
          await host.run({
            _tag: "LnurlPayInvoice",
            lnurl: url,
            amountSats,
            comment,
            fingerprint: offer.fingerprint,
            zap: { contactId, privacy },
          }),
        );

      // Private: signed by a key derived from the wallet's, the real request encrypted to the friend.
      const priv = await zap("Private", 1_000n, "just between us");
      const privRequest = priv.zapRequest ?? "";
      expect(validateZapRequest(privRequest)).toBeNull();
      const p = JSON.parse(privRequest) as VerifiedEvent;
      expect(p.pubkey).not.toBe(wallet);
      expect(p.pubkey).toBe(getPublicKey(privateZapKey(walletSecret, friend, p.created_at)));
      expect(p.content).toBe("");
      expect(p.tags).toContainEqual(["p", friend]);
      expect(p.tags).toContainEqual(["amount", "1000000"]);
      const anon = p.tags.find((t) => t[0] === "anon")?.[1] ?? "";
      expect(anon).toMatch(/^pzap1[02-9ac-hj-np-z]+_iv1[02-9ac-hj-np-z]+$/);
      // The friend opens it as Damus and Amethyst do: bech32 back to NIP-04's form, nostr-tools' nip04.
      const [ct = "", iv = ""] = anon.split("_");
      const payload = `${base64.encode(bech32.fromWords(bech32.decode(ct as `${string}1${string}`, false).words))}?iv=${base64.encode(bech32.fromWords(bech32.decode(iv as `${string}1${string}`, false).words))}`;
      const inner = JSON.parse(nip04.decrypt(friendSecret, p.pubkey, payload)) as VerifiedEvent;
      expect(verifyEvent(inner)).toBe(true);
      expect(inner).toMatchObject({ kind: 9733, pubkey: wallet, content: "just between us" });
      expect(inner.tags).toContainEqual(["p", friend]);
      expect(openPrivateZap(p, friendSecret)).toEqual({ sender: wallet, comment: "just between us" });
      // Nobody else can open it.
      expect(openPrivateZap(p, generateSecretKey())).toBeNull();

      // Anonymous: a throwaway key, an empty anon tag, the comment in clear.
      const anonZap = await zap("Anonymous", 2_000n, "from a fan");
      const anonRequest = anonZap.zapRequest ?? "";
      expect(validateZapRequest(anonRequest)).toBeNull();
      const a = JSON.parse(anonRequest) as VerifiedEvent;
      expect(a.pubkey).not.toBe(wallet);
      expect(a.pubkey).not.toBe(p.pubkey);
      expect(a.tags).toContainEqual(["anon"]);
      expect(a.content).toBe("from a fan");

      // Both paid: the service publishes a receipt for each, which the wallet matches to its request.
      const before = receipts.length;
      for (const z of [priv, anonZap]) paid.get(decodeBolt11(z.bolt11)?.paymentHash ?? "")?.();
      await expect.poll(() => receipts.length).toBe(before + 2);
      for (const [z, request] of [
        [priv, privRequest],
        [anonZap, anonRequest],
      ] as const) {
        const receipt = receipts.find((r) => r.tags.some((t) => t[0] === "bolt11" && t[1] === z.bolt11));
        expect(receipt && verifyEvent(receipt)).toBe(true);
        expect(receipt?.tags).toContainEqual(["description", request]);
        expect(receipt?.tags).toContainEqual(["p", friend]);
        expect(receipt?.tags).toContainEqual(["P", (JSON.parse(request) as VerifiedEvent).pubkey]);
      }
      expect(ok<{ confirmed: number }>(await host.run({ _tag: "CheckZaps" })).confirmed).toBe(2);
      // Each shows as a zap of its kind once its receipt matched.
      const zaps = foldEvents(await readEvents(db)).chat.zaps;
      expect(zaps.get(decodeBolt11(priv.bolt11)?.paymentHash ?? "")).toMatchObject({
        privacy: "Private",
        confirmed: true,
      });
      expect(zaps.get(decodeBolt11(anonZap.bolt11)?.paymentHash ?? "")).toMatchObject({
        privacy: "Anonymous",
        confirmed: true,
      });
    } finally {
      await host.stop();
    }
  }, 60_000);

  it("zaps a hodl-invoice provider only once the owner turned zaps to hodl on", async () => {
    const db = new WalletDb(`zaps-hodl-${Date.now()}`);
    const host = await openHost(db);
    try {
      ok(await host.run({ _tag: "CreateWallet" }));
      const contactId = await addContact(host, {
        name: "Held",
        npub: npubEncode(getPublicKey(generateSecretKey())),
        ln_address: "held@zeuspay.com",
      });
      const ask = (zap: { contactId: string } | null) =>
        host.run({
          _tag: "LnurlPayInvoice",
          lnurl: "https://zeuspay.com/.well-known/lnurlp/held",
          amountSats: 21n,
          comment: "",
          fingerprint: "any",
          zap,
        });
      const logged = (await readEvents(db)).length;
      expect(await ask({ contactId })).toMatchObject({
        ok: false,
        error: { _tag: "InvalidInput", key: "send.error_hodl_zap" },
      });
      expect((await readEvents(db)).length).toBe(logged);
      // A plain payment is not a zap: the toggle does not stop it (the provider is unreachable from here).
      expect(await ask(null)).toMatchObject({ ok: false, error: { _tag: "ServerUnavailable" } });
      // Turned on: the zap goes ahead to the provider.
      ok(await host.run({ _tag: "SetZapHodl", enabled: true }));
      expect(await ask({ contactId })).toMatchObject({ ok: false, error: { _tag: "ServerUnavailable" } });
    } finally {
      await host.stop();
    }
  }, 90_000);

  it("the friends tab's rows open the chat of a saved contact, and name someone newly found for the owner to add", async () => {
    const { secret: friendSecret, pubkey: friend } = someone();
    const { secret: strangerSecret, pubkey: stranger } = someone();
    // Two zaps made and received by outside clients (nostr-tools), their receipts on the world's relay.
    const zapOf = (sender: Uint8Array, to: string, at: number) => {
      const request = JSON.stringify(
        finalizeEvent(
          {
            ...makeZapRequest({ pubkey: to, amount: 5_000, relays: [world.nostr.relayUrl] }),
            created_at: at,
          },
          sender,
        ),
      );
      const bolt11 = signInvoice({ msat: 5_000n, descriptionHash: sha256(utf8.decode(request)) });
      world.nostr.relay.publish(
        finalizeEvent(
          makeZapReceipt({ zapRequest: request, bolt11, paidAt: new Date(at * 1000) }),
          serviceKey,
        ),
      );
    };
    const now = Math.floor(Date.now() / 1000);
    // Both recipients are paid at the service, which signs their receipts (their profiles say where).
    const { secret: zappedSecret, pubkey: zapped } = someone();
    for (const [i, who] of [friendSecret, zappedSecret].entries()) {
      const { address } = service.addPay({
        name: `rcpt${i}`,
        minSendable: 1_000n,
        maxSendable: 100_000_000n,
        description: "Tips",
      });
      world.nostr.relay.publish(
        finalizeEvent(
          { kind: 0, created_at: now - 100, tags: [], content: JSON.stringify({ lud16: address }) },
          who,
        ),
      );
    }
    zapOf(strangerSecret, friend, now - 20);
    zapOf(friendSecret, zapped, now - 10);

    const db = new WalletDb(`zaps-friends-${Date.now()}`);
    const host = await openHost(db, `${world.base}/primal`);
    try {
      ok(await host.run({ _tag: "CreateWallet" }));
      const friendId = await addContact(host, {
        name: "Friend",
        npub: npubEncode(friend),
        ln_address: "",
        fromProfile: true,
      });
      ok(await host.run({ _tag: "SetFollowed", id: friendId, followed: true }));
      const rows = async () =>
        ok<{ zaps: FriendZap[] }>(await host.run({ _tag: "GetFriendZaps" })).zaps.map((z) => ({
          from: z.from_hexpub,
          chat: z.chat,
        }));
      expect(await rows()).toEqual([
        // The friend's zap: the row opens the friend's chat.
        { from: friend, chat: { npub: npubEncode(friend), name: "Friend", contact_id: friendId } },
        // Someone not among the contacts zapped the friend: newly found, the row asks before adding them.
        { from: stranger, chat: { npub: npubEncode(stranger), name: null, contact_id: null } },
      ]);
      // Continue adds them as the screen does; the row then opens their chat.
      const { id } = ok<{ id: string }>(
        await host.run({
          _tag: "CreateContact",
          name: "Stranger",
          npub: npubEncode(stranger),
          ln_address: "",
          fromProfile: true,
        }),
      );
      expect((await rows())[1]?.chat).toEqual({
        npub: npubEncode(stranger),
        name: "Stranger",
        contact_id: id,
      });
    } finally {
      await host.stop();
    }
  }, 60_000);
});
