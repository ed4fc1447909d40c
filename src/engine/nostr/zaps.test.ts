/**
 * The friends tab's zap feed against the local world's cache service: zap requests made and receipts
 * signed by nostr-tools (nip57), published to the world's relay; and the spec's errors from a cache that
 * answers something else than an array or nothing usable.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sha256 } from "@noble/hashes/sha2.js";
import { utf8 } from "@scure/base";
import { makeZapReceipt, makeZapRequest } from "nostr-tools/nip57";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInvoice } from "../../../harness/bolt11-sign";
import { type LnurlService, startLnurlService } from "../../../harness/lnurl";
import { serveNostr } from "../../../harness/nostr/standalone";
import type { NostrWorld } from "../../../harness/nostr/world";
import { fetchZaps, ZAPS_FAILED_TEXT, ZAPS_LIMIT, ZAPS_NOT_ARRAY_TEXT, ZapsFailed } from "./zaps";

const service = generateSecretKey();
const nodeFetch = (i: RequestInfo | URL, init?: RequestInit) => fetch(i, init);

/** A zap of `sats` from `sender` to `recipient`, paid at `at`, as the recipient's LNURL server signs it. */
const zap = (
  sender: Uint8Array,
  recipient: string,
  sats: number,
  at: number,
  opts: { amount?: boolean; anon?: boolean } = {},
) => {
  const request = finalizeEvent(
    {
      ...makeZapRequest({
        pubkey: recipient,
        amount: sats * 1000,
        comment: `thanks ${sats}`,
        relays: ["ws://x/"],
      }),
      ...(opts.anon
        ? {
            tags: [
              ...makeZapRequest({ pubkey: recipient, amount: sats * 1000, relays: ["ws://x/"] }).tags,
              ["anon"],
            ],
          }
        : {}),
    },
    sender,
  );
  const bolt11 = signInvoice({
    msat: BigInt(sats) * 1000n,
    descriptionHash: sha256(utf8.decode(JSON.stringify(request))),
  });
  const receipt = makeZapReceipt({
    zapRequest: JSON.stringify(request),
    bolt11,
    paidAt: new Date(at * 1000),
  });
  if (opts.amount === false)
    receipt.tags = receipt.tags.map((t) => (t[0] === "bolt11" ? ["bolt11", "lnbcrt1notaninvoice"] : t));
  return finalizeEvent(receipt, service);
};

describe("friends' zaps from the world's cache service", () => {
  let world: { nostr: NostrWorld; base: string; stop: () => Promise<void> };
  let lnurl: LnurlService;
  const ann = generateSecretKey();
  const ben = generateSecretKey();
  const stranger = generateSecretKey();
  const base = Math.floor(Date.now() / 1000) - 10_000;

  beforeAll(async () => {
    world = await serveNostr();
    // Ann's and Ben's lightning addresses are on a pay server that signs their receipts with `service`.
    lnurl = await startLnurlService({
      createInvoice: async (msat, descriptionHash) => signInvoice({ msat, descriptionHash }),
      payInvoice: async () => undefined,
      zaps: { secret: service, whenPaid: () => new Promise(() => undefined), publish: () => undefined },
    });
    for (const [key, name] of [
      [ann, "Ann"],
      [ben, "Ben"],
    ] as const) {
      const { address } = lnurl.addPay({
        name: name.toLowerCase(),
        minSendable: 1_000n,
        maxSendable: 10n ** 12n,
        description: name,
      });
      world.nostr.relay.publish(
        finalizeEvent(
          { kind: 0, created_at: base, tags: [], content: JSON.stringify({ name, lud16: address }) },
          key,
        ),
      );
    }
    // Ann zaps Ben 120 times; one has no amount; a stranger zaps a stranger.
    for (let i = 0; i < 120; i++) world.nostr.relay.publish(zap(ann, getPublicKey(ben), 100 + i, base + i));
    world.nostr.relay.publish(zap(ann, getPublicKey(ben), 7, base + 500, { amount: false }));
    world.nostr.relay.publish(zap(ben, getPublicKey(ann), 21, base + 600, { anon: true }));
    world.nostr.relay.publish(zap(stranger, getPublicKey(generateSecretKey()), 5, base + 700));
  });
  afterAll(async () => {
    await lnurl?.stop();
    await world?.stop();
  });

  it("reads a page of 100, newest first with names, skips a zap without an amount, and pages back", async () => {
    const first = await fetchZaps(nodeFetch, world.nostr.cacheUrl, [getPublicKey(ann)]);
    // The feed for Ann: zaps she received (p) or sent (P).
    const annTo = first.zaps.filter((z) => z.to_hexpub === getPublicKey(ann));
    expect(annTo).toEqual([
      expect.objectContaining({
        kind: "anonymous",
        from_hexpub: null,
        amount_sats: 21n,
        to_hexpub: getPublicKey(ann),
      }),
    ]);

    const page = await fetchZaps(nodeFetch, world.nostr.cacheUrl, [getPublicKey(ben)]);
    expect(page.zaps.length).toBeLessThanOrEqual(ZAPS_LIMIT);
    expect(page.zaps.some((z) => z.amount_sats === 7n)).toBe(false);
    // Ben's own zap (he is its sender, P) is the newest; then Ann's to him.
    expect(page.zaps[0]).toMatchObject({ kind: "anonymous", amount_sats: 21n });
    expect(page.zaps[1]).toMatchObject({
      kind: "public",
      from_hexpub: getPublicKey(ann),
      note: "thanks 219",
    });
    expect(page.names.get(getPublicKey(ann))).toBe("Ann");
    for (let i = 1; i < page.zaps.length; i++)
      expect(page.zaps[i - 1]!.timestamp).toBeGreaterThanOrEqual(page.zaps[i]!.timestamp);
    expect(page.until).not.toBeNull();
    const older = await fetchZaps(nodeFetch, world.nostr.cacheUrl, [getPublicKey(ben)], page.until ?? 0);
    const all = [...page.zaps, ...older.zaps].map((z) => z.amount_sats);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(121);
    expect(older.zaps.every((z) => z.timestamp < page.zaps.at(-1)!.timestamp)).toBe(true);
    expect(await fetchZaps(nodeFetch, world.nostr.cacheUrl, [])).toMatchObject({ zaps: [], until: null });
  }, 60_000);
});

describe("friends' zaps from a cache that misbehaves", () => {
  let server: Server;
  let base = "";
  let answer = "";
  beforeAll(async () => {
    server = createServer((_req, res) => {
      if (answer === "hang") return;
      res.writeHead(answer === "500" ? 500 : 200, { "content-type": "application/json" });
      res.end(answer);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/primal`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const failure = async (text: string) => {
    answer = text;
    try {
      await fetchZaps(nodeFetch, base, ["a".repeat(64)], undefined, { timeoutMs: 1_000, maxBytes: 10_000 });
    } catch (e) {
      return e;
    }
    return null;
  };

  it("'Zap response was not an array' and 'Failed to load zaps'", async () => {
    expect(await failure(JSON.stringify({ events: [] }))).toMatchObject({ message: ZAPS_NOT_ARRAY_TEXT });
    for (const bad of ["[{", "500", "hang", `[${"1,".repeat(10_000)}1]`]) {
      const e = await failure(bad);
      expect(e).toBeInstanceOf(ZapsFailed);
      expect(e).toMatchObject({ message: ZAPS_FAILED_TEXT });
    }
    answer = JSON.stringify([{ kind: 9735, junk: true }, 42, null]);
    expect((await fetchZaps(nodeFetch, base, ["a".repeat(64)])).zaps).toEqual([]);
  }, 60_000);
});
