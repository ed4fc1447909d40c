/**
 * A burst of private messages far past what a relay answers at once (the world's relay, like most, gives at
 * most 500 events per REQ): an outside client (nostr-tools) writes 650 messages to the wallet, by NIP-04 and
 * NIP-17. The wallet reads them page by page (`until`), opens at most 500 per command so other commands keep
 * answering, counts what waits for the next read, and in the end every message is in the chat: none is lost.
 */
import * as nip04 from "nostr-tools/nip04";
import * as nip17 from "nostr-tools/nip17";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { describe, expect, it } from "vitest";
import { pubkeyOf, seedSecretKey } from "../../engine/nostr/keys";
import { WalletDb } from "../../events/db";
import { readEvents } from "../../events/log";
import { foldEvents } from "../../projections";
import { MAX_ARRIVALS } from "./chat";
import { ok, openNostrHost } from "../host/host.testing";
import { nostrWorldForTests } from "../nostr/world.testing";

const world = nostrWorldForTests();

const LEGACY = 600;
const WRAPPED = 50;

describe("a flood of incoming messages", () => {
  it("lands whole in the chat, a part per read, while the wallet keeps answering", async () => {
    const db = new WalletDb(`chat-flood-${Date.now()}`);
    const host = await openNostrHost(db, world.configOf([world.nostr.relayUrl]));
    try {
      ok(await host.run({ _tag: "CreateWallet" }));
      const { words } = ok<{ words: string[] }>(await host.run({ _tag: "ShowSeed" }));
      const wallet = pubkeyOf(seedSecretKey(words.join(" ")));
      const sender = generateSecretKey();
      const now = Math.floor(Date.now() / 1000);
      // One a second over the last 600 seconds by NIP-04, and 50 gift wraps (dated up to two days back).
      for (let i = 0; i < LEGACY; i++)
        world.nostr.relay.publish(
          finalizeEvent(
            {
              kind: 4,
              created_at: now - LEGACY + i,
              tags: [["p", wallet]],
              content: nip04.encrypt(sender, wallet, `flood ${i}`),
            },
            sender,
          ),
        );
      for (let i = 0; i < WRAPPED; i++)
        world.nostr.relay.publish(nip17.wrapEvent(sender, { publicKey: wallet }, `wrapped ${i}`));

      const texts = async () =>
        (foldEvents(await readEvents(db)).chat.conversations.get(getPublicKey(sender)) ?? []).map(
          (m) => m.text,
        );

      // Each read opens at most 500 and says how many wait; another command answers before the read does.
      const reads: { received: number; waiting: number }[] = [];
      for (let i = 0; i < 10; i++) {
        const order: string[] = [];
        const [read] = await Promise.all([
          host.run({ _tag: "SyncMessages" }).then((a) => {
            order.push("sync");
            return ok<{ received: number; waiting: number }>(a);
          }),
          host.run({ _tag: "GetNpub" }).then((a) => {
            order.push("npub");
            return ok(a);
          }),
        ]);
        expect(order).toEqual(["npub", "sync"]);
        reads.push(read);
        expect(read.received).toBeLessThanOrEqual(MAX_ARRIVALS);
        if (read.waiting === 0) break;
      }
      expect(reads[0]).toEqual({ received: MAX_ARRIVALS, waiting: LEGACY + WRAPPED - MAX_ARRIVALS });
      expect(reads.at(-1)?.waiting).toBe(0);
      expect(reads.reduce((n, r) => n + r.received, 0)).toBe(LEGACY + WRAPPED);
      const all = await texts();
      expect(all).toHaveLength(LEGACY + WRAPPED);
      expect(new Set(all)).toEqual(
        new Set([
          ...Array.from({ length: LEGACY }, (_, i) => `flood ${i}`),
          ...Array.from({ length: WRAPPED }, (_, i) => `wrapped ${i}`),
        ]),
      );
      // Read again: nothing new, nothing waiting.
      expect(ok(await host.run({ _tag: "SyncMessages" }))).toEqual({ received: 0, waiting: 0 });
    } finally {
      await host.stop();
    }
  }, 300_000);
});
