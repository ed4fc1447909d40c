/**
 * Forged zap receipts (NIP-57 appendix F) against the local world: Bob's lightning address is on the world's
 * LNURL service, which signs the receipts of zaps really paid to him; a relay in the `forged-receipts` hostile
 * mode adds receipts forged four ways (a random signer, an invoice for another amount than asked, an invoice
 * committing to another request, a phishing text of 21 M BTC), which the cache service then serves. Only the
 * genuine zaps show: a public one and a private one, opened by Bob's key.
 */
import { base64, bech32 } from "@scure/base";
import * as nip04 from "nostr-tools/nip04";
import { decode as nip19Decode } from "nostr-tools/nip19";
import { makeZapRequest } from "nostr-tools/nip57";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { Relay, useWebSocketImplementation as relayWebSocket } from "nostr-tools/relay";
import { beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { Hostility } from "../../../harness/hostile";
import { type LnurlService, startZapService } from "../../../harness/lnurl";
import { ALICE, FORGED_FORMS, PHISHING_TEXT } from "../../../harness/nostr/hostile-relay";
import { serveNostr } from "../../../harness/nostr/standalone";
import type { NostrWorld, Person } from "../../../harness/nostr/world";
import { decodeBolt11 } from "../parse/bolt11";
import { openPrivateZap } from "./zap-request";
import { fetchZaps, type PrivateZapOpener } from "./zaps";
import { stopAfterAll } from "../../../harness/stop-after-all";

relayWebSocket(WebSocket);
const zapSecret = generateSecretKey();
const hostility = new Hostility();
const paid = new Map<string, () => void>();
const nodeFetch = (i: RequestInfo | URL, init?: RequestInit) => fetch(i, init);
let lnurl: LnurlService;
let world: { nostr: NostrWorld; base: string; stop: () => Promise<void> };
let bob: Person;
let bobSecret: Uint8Array;
const fan = generateSecretKey();

/** Asks Bob's pay server for an invoice for `request` (a signed kind 9734) and pays it: its receipt goes out. */
const zapBob = async (request: string, msat: bigint) => {
  const offer = (await (await fetch(`${lnurl.base}/lnurlp/bob`)).json()) as { callback: string };
  const callback = new URL(offer.callback);
  callback.searchParams.set("amount", String(msat));
  callback.searchParams.set("nostr", request);
  const { pr } = (await (await fetch(callback)).json()) as { pr: string };
  const before = lnurl.receipts.length;
  paid.get(decodeBolt11(pr)?.paymentHash ?? "")?.();
  for (let i = 0; i < 3_000 && lnurl.receipts.length === before; i++)
    await new Promise((r) => setTimeout(r, 10));
  if (lnurl.receipts.length !== before + 1) throw new Error("no receipt");
};

beforeAll(async () => {
  lnurl = await startZapService(zapSecret, paid, (receipt) => void world.nostr.relay.publish(receipt));
  world = await serveNostr({ hostility, lnurl, zapSecret });
  bob = world.nostr.seed({ name: "bob", display_name: "Bob" });
  bobSecret = nip19Decode(bob.nsec as `nsec1${string}`).data;
  // A fan zaps Bob 2,100 sats in public...
  const relays = [world.nostr.relayUrl];
  await zapBob(
    JSON.stringify(
      finalizeEvent(
        makeZapRequest({ pubkey: bob.pubkey, amount: 2_100_000, comment: "thanks!", relays }),
        fan,
      ),
    ),
    2_100_000n,
  );
  // ...and 21 sats privately, as Damus and Amethyst make a private zap (the real request encrypted to Bob).
  const inner = finalizeEvent(
    { kind: 9733, created_at: Math.floor(Date.now() / 1000), tags: [["p", bob.pubkey]], content: "psst" },
    fan,
  );
  const signing = generateSecretKey();
  const [ct = "", iv = ""] = nip04.encrypt(signing, bob.pubkey, JSON.stringify(inner)).split("?iv=");
  const anon = `${bech32.encode("pzap", bech32.toWords(base64.decode(ct)), false)}_${bech32.encode("iv", bech32.toWords(base64.decode(iv)), false)}`;
  const template = makeZapRequest({ pubkey: bob.pubkey, amount: 21_000, comment: "", relays });
  await zapBob(
    JSON.stringify(finalizeEvent({ ...template, tags: [...template.tags, ["anon", anon]] }, signing)),
    21_000n,
  );
}, 60_000);
stopAfterAll(() => [lnurl, world]);

const bobOpens: PrivateZapOpener = (request) => openPrivateZap(request, bobSecret);

/** What the cache at `base` serves for Bob: its receipts as served, and the zaps the wallet believes. */
const feed = async (base: string) => {
  const raw = (await (
    await fetch(base, {
      method: "POST",
      body: JSON.stringify(["zaps_feed", { pubkeys: [bob.pubkey], limit: 100 }]),
    })
  ).json()) as { kind: number }[];
  const page = await fetchZaps(nodeFetch, base, [bob.pubkey], undefined, undefined, bobOpens);
  return { served: raw.filter((e) => e.kind === 9735).length, page };
};

const genuine = [
  { kind: "private", from_hexpub: getPublicKey(fan), amount_sats: 21n, note: "psst" },
  { kind: "public", from_hexpub: getPublicKey(fan), amount_sats: 2_100n, note: "thanks!" },
];

/** The zaps shown, smallest first (the two genuine ones may share a second, so their order is the ids'). */
const shown = (page: Awaited<ReturnType<typeof feed>>["page"]) =>
  [...page.zaps]
    .sort((a, b) => (a.amount_sats < b.amount_sats ? -1 : 1))
    .map((z) => ({
      kind: z.kind,
      from_hexpub: z.from_hexpub,
      amount_sats: z.amount_sats,
      note: z.note,
    }));

describe("forged zap receipts", () => {
  it("the genuine zaps to Bob show, public and private (opened by Bob's key)", async () => {
    const { served, page } = await feed(world.nostr.cacheUrl);
    expect(served).toBe(2);
    expect(shown(page)).toEqual(genuine);
    expect(page.zaps.every((z) => z.to_hexpub === bob.pubkey)).toBe(true);
  });

  for (const form of FORGED_FORMS)
    it(`a receipt forged by ${form} is not shown`, async () => {
      const scope = `zap-${form}`;
      hostility.set("relay", scope, "forged-receipts", { forms: [form] });
      const { served, page } = await feed(`${world.base}/hostile/${scope}/primal`);
      // The lie was served, with Alice's profile to make it read well; the wallet shows only the genuine zaps.
      expect(served).toBe(3);
      if (form !== "phishing") expect(page.names.get(ALICE)).toBe("Alice Lovelace");
      expect(shown(page)).toEqual(genuine);
      expect(page.zaps.some((z) => z.note === PHISHING_TEXT || z.from_hexpub === ALICE)).toBe(false);
    });

  it("all four at once on the relay itself, as a nostr client reads it", async () => {
    hostility.set("relay", "zap-all", "forged-receipts");
    const relay = await Relay.connect(`${world.base.replace(/^http/, "ws")}/hostile/zap-all/nostr`);
    try {
      const got: { pubkey: string }[] = [];
      await new Promise<void>((resolve) => {
        const sub = relay.subscribe([{ kinds: [9735], "#p": [bob.pubkey] }], {
          onevent: (e) => void got.push(e),
          oneose: () => {
            sub.close();
            resolve();
          },
        });
      });
      expect(got).toHaveLength(2 + FORGED_FORMS.length);
      // Two forms are signed by the very key of Bob's pay server: only the invoice gives them away.
      expect(got.filter((e) => e.pubkey === getPublicKey(zapSecret))).toHaveLength(4);
    } finally {
      relay.close();
    }
    const { served, page } = await feed(`${world.base}/hostile/zap-all/primal`);
    expect(served).toBe(2 + FORGED_FORMS.length);
    expect(shown(page)).toEqual(genuine);
  });
});
