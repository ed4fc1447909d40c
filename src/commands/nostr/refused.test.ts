/**
 * A profile edit the world's relay refuses for good (the owner deleted their profile from another client, so
 * the relay blocks older versions, NIP-09): the wallet records it as failed, stops sending it, shows it on
 * the profile view, and still does after a reload. The deletion goes out through nostr-tools' own client.
 */
import { finalizeEvent } from "nostr-tools/pure";
import { useWebSocketImplementation as relayWebSocket } from "nostr-tools/relay";
import { beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { nodeWebSocket } from "../../../services/gossip/pipes";
import { serveNostr } from "../../../harness/nostr/standalone";
import type { NostrWorld } from "../../../harness/nostr/world";
import type { WalletConfig } from "../../config";
import type { Platform } from "../../engine/engine";
import { nostrEngine } from "../../engine/nostr/engine";
import { pubkeyOf, seedSecretKey } from "../../engine/nostr/keys";
import { WalletDb } from "../../events/db";
import { readEvents } from "../../events/log";
import { WalletHost } from "../host/host";
import { ok, testCipher } from "../host/host.testing";
import { offlineConfig } from "../offline.testing";
import { stopAfterAll } from "../../../harness/stop-after-all";
import { publishFromOutside } from "../../../harness/nostr/outside";

relayWebSocket(WebSocket);

const platform: Platform = {
  fetch: (i, init) => fetch(i, init),
  makeSocket: nodeWebSocket,
  loadLdk: async () => undefined,
};

let world: { nostr: NostrWorld; base: string; stop: () => Promise<void> };
beforeAll(async () => {
  world = await serveNostr();
});
stopAfterAll(() => [world]);

const openHost = (db: WalletDb) => {
  const config: WalletConfig = {
    ...offlineConfig,
    nostr: {
      relays: [world.nostr.relayUrl],
      primal: `${world.base}/primal`,
      blossom: `${world.base}/blossom`,
    },
  };
  return WalletHost.open({
    db,
    config,
    cipher: testCipher,
    onViews: () => undefined,
    engines: { list: [nostrEngine], platform },
  });
};

describe("a profile edit every relay refuses for good", () => {
  it("is recorded as failed, shown on the profile, and not sent again, across a reload", async () => {
    const db = new WalletDb("nostr-refused");
    let host = await openHost(db);
    try {
      ok(await host.run({ _tag: "CreateWallet" }));
      const { words } = ok<{ words: string[] }>(await host.run({ _tag: "ShowSeed" }));
      const sk = seedSecretKey(words.join(" "));
      // The owner deleted their profile elsewhere, up to a few minutes from now.
      const deletion = finalizeEvent(
        {
          kind: 5,
          created_at: Math.floor(Date.now() / 1000) + 300,
          tags: [["a", `0:${pubkeyOf(sk)}:`]],
          content: "",
        },
        sk,
      );
      await publishFromOutside(world.nostr.relayUrl, deletion);

      ok(await host.run({ _tag: "SetupNewProfile", name: "Refused Rita", imageUrl: null }));
      await vi.waitFor(() => expect(host.views().profile.failed.count).toBe(1), {
        timeout: 60_000,
        interval: 100,
      });
      expect(host.views().profile).toMatchObject({
        pending: 0,
        failed: { count: 1, reason: "blocked: deleted by its author" },
        profile: { name: "Refused Rita" },
      });
    } finally {
      await host.stop();
    }
    const failed = (await readEvents(db)).filter((e) => e.type === "nostr.failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]!.payload).toMatchObject({
      refusals: [{ relay: world.nostr.relayUrl, reason: "blocked: deleted by its author" }],
    });

    // After a reload the outbox has nothing to send, and the owner still sees why.
    host = await openHost(db);
    try {
      expect(host.views().profile).toMatchObject({ pending: 0, failed: { count: 1 } });
    } finally {
      await host.stop();
    }
    expect((await readEvents(db)).filter((e) => e.type === "nostr.failed")).toHaveLength(1);
  });
});
