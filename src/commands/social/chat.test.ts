/**
 * Private messages through the wallet's host and engine against the local world's relay (NIP-42 AUTH gates
 * gift wraps). The other party is an outside client: nostr-tools in Node (nip17, nip04, SimplePool), not the
 * wallet's code. A TCP forwarder in front of the relay plays the network going away and coming back.
 */
import type { EventTemplate } from "nostr-tools/core";
import { decode, npubEncode } from "nostr-tools/nip19";
import * as nip04 from "nostr-tools/nip04";
import * as nip17 from "nostr-tools/nip17";
import { SimplePool, useWebSocketImplementation as setPoolSocket } from "nostr-tools/pool";
import { finalizeEvent, generateSecretKey, getPublicKey, type NostrEvent } from "nostr-tools/pure";
import { describe, expect, it, vi } from "vitest";
import type { AddressInfo } from "node:net";
import WebSocket, { WebSocketServer } from "ws";
import { pubkeyOf, seedSecretKey } from "../../engine/nostr/keys";
import { WalletDb } from "../../events/db";
import { readEvents } from "../../events/log";
import { foldEvents } from "../../projections";
import type { ChatPage } from "../../projections/chat";
import type { WalletHost } from "../host/host";
import { serveNostr } from "../../../harness/nostr/standalone";
import { ok, openNostrHost, addContact } from "../host/host.testing";
import { someone } from "../../../harness/nostr/people";
import { nostrWorldForTests } from "../nostr/world.testing";

setPoolSocket(WebSocket);

const world = nostrWorldForTests();
let n = 0;

const openHost = (db: WalletDb) => openNostrHost(db, world.configOf(world.viaLink()));

const secretOf = (nsec: string): Uint8Array => {
  const d = decode(nsec);
  if (d.type !== "nsec") throw new Error("not an nsec");
  return d.data;
};

/** The gift wraps addressed to `secret`'s key, read by an outside client that answers the relay's AUTH. */
const wrapsFor = async (secret: Uint8Array, relay = world.nostr.relayUrl): Promise<NostrEvent[]> => {
  const pool = new SimplePool();
  try {
    return await pool.querySync([relay], { kinds: [1059], "#p": [getPublicKey(secret)] }, {
      onauth: async (t: EventTemplate) => finalizeEvent(t, secret),
    } as never);
  } finally {
    pool.destroy();
  }
};

const publish = async (event: NostrEvent) => {
  const pool = new SimplePool();
  try {
    await Promise.all(pool.publish([world.nostr.relayUrl], event));
  } finally {
    pool.destroy();
  }
};

/**
 * A friend who published `inbox` as their NIP-17 inbox list (kind 10050), saved as a contact of a new wallet
 * whose chat is open and whose relay is connected (so it asks for that list before sending).
 */
const chatWithInbox = async (host: WalletHost, friendSecret: Uint8Array, inbox: string, name: string) => {
  await publish(
    finalizeEvent(
      { kind: 10050, created_at: Math.floor(Date.now() / 1000), tags: [["relay", inbox]], content: "" },
      friendSecret,
    ),
  );
  ok(await host.run({ _tag: "CreateWallet" }));
  const contactId = ok<{ id: string }>(
    await host.run({
      _tag: "CreateContact",
      name,
      npub: npubEncode(getPublicKey(friendSecret)),
      ln_address: "",
      fromProfile: true,
    }),
  ).id;
  ok(await host.run({ _tag: "WatchMessages" }));
  await vi.waitFor(() => expect(host.views().live.nostr_relays?.[0]?.connected).toBe(true), {
    timeout: 30_000,
  });
  return contactId;
};

const messages = (page: ChatPage) =>
  page.entries.flatMap((e) => (e.type === "message" ? [{ mine: e.mine, text: e.text }] : []));

describe("private messages with an outside client", () => {
  it("reads a NIP-17 message and a NIP-04 message, answers by NIP-17, and keeps the chat across a reload", async () => {
    const alice = world.nostr.seeded[0];
    if (!alice) throw new Error("the world has no seeded people");
    const aliceSecret = secretOf(alice.nsec);
    const db = new WalletDb(`chat-${++n}`);
    let host = await openHost(db);
    let wallet = "";
    let contactId = "";
    try {
      ok(await host.run({ _tag: "CreateWallet" }));
      const { words } = ok<{ words: string[] }>(await host.run({ _tag: "ShowSeed" }));
      wallet = pubkeyOf(seedSecretKey(words.join(" ")));
      contactId = await addContact(host, {
        name: "Alice",
        npub: alice.npub,
        ln_address: "",
        fromProfile: true,
      });

      // The outside client writes first, by NIP-17 and by the older NIP-04.
      await publish(nip17.wrapEvent(aliceSecret, { publicKey: wallet }, "hi from nostr-tools"));
      const legacy = finalizeEvent(
        {
          kind: 4,
          created_at: Math.floor(Date.now() / 1000),
          tags: [["p", wallet]],
          content: nip04.encrypt(aliceSecret, wallet, "an old-style message"),
        },
        aliceSecret,
      );
      await publish(legacy);

      await vi.waitFor(
        async () => {
          ok(await host.run({ _tag: "SyncMessages" }));
          const page = ok<ChatPage>(await host.run({ _tag: "GetChat", contactId }));
          expect(
            messages(page)
              .map((m) => m.text)
              .sort(),
          ).toEqual(["an old-style message", "hi from nostr-tools"]);
        },
        { timeout: 60_000, interval: 500 },
      );
      // Read once: another refresh records nothing new.
      expect(ok<{ received: number }>(await host.run({ _tag: "SyncMessages" })).received).toBe(0);

      ok(await host.run({ _tag: "SendMessage", contactId, text: "hello back, Alice" }));
      // The outside client authenticates and opens the wallet's gift wrap with nostr-tools' nip17.
      await vi.waitFor(
        async () => {
          const opened = (await wrapsFor(aliceSecret)).map((w) => nip17.unwrapEvent(w, aliceSecret));
          const reply = opened.find((r) => r.content === "hello back, Alice");
          expect(reply).toMatchObject({ kind: 14, pubkey: wallet });
          expect(reply?.tags.some((t) => t[0] === "p" && t[1] === alice.pubkey)).toBe(true);
        },
        { timeout: 60_000, interval: 500 },
      );
      // Without AUTH, nobody else is served the wraps.
      const stranger = new SimplePool();
      try {
        const seen = await stranger.querySync(
          [world.nostr.relayUrl],
          { kinds: [1059], "#p": [alice.pubkey] },
          { maxWait: 3_000 },
        );
        expect(seen).toEqual([]);
      } finally {
        stranger.destroy();
      }
    } finally {
      await host.stop();
    }

    // The log alone gives the same chat: a reload, and a replay of the events.
    host = await openHost(db);
    try {
      const page = ok<ChatPage>(await host.run({ _tag: "GetChat", contactId }));
      expect(messages(page)).toHaveLength(3);
      expect(
        messages(page)
          .filter((m) => m.mine)
          .map((m) => m.text),
      ).toEqual(["hello back, Alice"]);
      const replayed = foldEvents(await readEvents(db));
      expect([...(replayed.chat.conversations.get(alice.pubkey) ?? [])].map((m) => m.text).sort()).toEqual([
        "an old-style message",
        "hello back, Alice",
        "hi from nostr-tools",
      ]);
      // The wallet's own NIP-17 inbox list went out.
      const pool = new SimplePool();
      try {
        const lists = await pool.querySync([world.nostr.relayUrl], { kinds: [10050], authors: [wallet] });
        expect(lists[0]?.tags).toEqual([["relay", `ws://127.0.0.1:${world.link.port}/nostr`]]);
      } finally {
        pool.destroy();
      }
    } finally {
      await host.stop();
    }
  }, 180_000);

  it("a message written offline waits in the outbox and goes once the relay is reachable", async () => {
    const bob = world.nostr.seeded[1];
    if (!bob) throw new Error("the world has fewer than two seeded people");
    const bobSecret = secretOf(bob.nsec);
    const db = new WalletDb(`chat-${++n}`);
    await world.link.down();
    const host = await openHost(db);
    try {
      ok(await host.run({ _tag: "CreateWallet" }));
      const contactId = await addContact(host, {
        name: "Bob",
        npub: bob.npub,
        ln_address: "",
        fromProfile: true,
      });
      ok(await host.run({ _tag: "SendMessage", contactId, text: "typed on a train" }));
      const page = ok<ChatPage>(await host.run({ _tag: "GetChat", contactId }));
      expect(page.entries).toMatchObject([
        { type: "message", mine: true, text: "typed on a train", delivery: "pending" },
      ]);
      expect(await host.run({ _tag: "SendMessage", contactId, text: "   " })).toMatchObject({
        ok: false,
        error: { _tag: "InvalidInput" },
      });
      await world.link.up();
      await vi.waitFor(
        async () => {
          const opened = (await wrapsFor(bobSecret)).map((w) => nip17.unwrapEvent(w, bobSecret));
          expect(opened.map((r) => r.content)).toContain("typed on a train");
        },
        { timeout: 90_000, interval: 1_000 },
      );
      await vi.waitFor(
        async () => {
          const after = ok<ChatPage>(await host.run({ _tag: "GetChat", contactId }));
          expect(after.entries).toMatchObject([{ type: "message", delivery: "sent" }]);
        },
        { timeout: 30_000, interval: 500 },
      );
    } finally {
      await host.stop();
    }
  }, 180_000);

  it("shows new messages as they arrive on the relay subscription, without a refresh, also after a reconnection", async () => {
    const { secret: friendSecret, pubkey: friend } = someone();
    const db = new WalletDb(`chat-${++n}`);
    let arrived = 0;
    const host = await openNostrHost(db, world.configOf(world.viaLink()), {
      onViews: (v) => {
        arrived = v.live?.messages_arrived ?? arrived;
      },
    });
    try {
      ok(await host.run({ _tag: "CreateWallet" }));
      const { words } = ok<{ words: string[] }>(await host.run({ _tag: "ShowSeed" }));
      const wallet = pubkeyOf(seedSecretKey(words.join(" ")));
      const contactId = await addContact(host, {
        name: "Live",
        npub: npubEncode(friend),
        ln_address: "",
        fromProfile: true,
      });
      // The open chat asks for the live subscription; from here on no SyncMessages (the poll) runs.
      ok(await host.run({ _tag: "WatchMessages" }));
      const texts = async () =>
        messages(ok<ChatPage>(await host.run({ _tag: "GetChat", contactId }))).map((m) => m.text);

      await publish(nip17.wrapEvent(friendSecret, { publicKey: wallet }, "live over NIP-17"));
      await vi.waitFor(async () => expect(await texts()).toEqual(["live over NIP-17"]), {
        timeout: 30_000,
        interval: 200,
      });
      expect(arrived).toBe(1);
      await publish(
        finalizeEvent(
          {
            kind: 4,
            created_at: Math.floor(Date.now() / 1000),
            tags: [["p", wallet]],
            content: nip04.encrypt(friendSecret, wallet, "live over NIP-04"),
          },
          friendSecret,
        ),
      );
      await vi.waitFor(async () => expect(await texts()).toContain("live over NIP-04"), {
        timeout: 30_000,
        interval: 200,
      });
      expect(arrived).toBe(2);

      // The relay goes away and comes back: the subscription is opened again (with AUTH) by itself.
      await world.link.down();
      await vi.waitFor(() => expect(host.views().live.nostr_relays?.[0]?.connected).toBe(false), {
        timeout: 30_000,
      });
      await world.link.up();
      await vi.waitFor(() => expect(host.views().live.nostr_relays?.[0]?.connected).toBe(true), {
        timeout: 90_000,
        interval: 250,
      });
      await publish(nip17.wrapEvent(friendSecret, { publicKey: wallet }, "after the reconnection"));
      await vi.waitFor(async () => expect(await texts()).toContain("after the reconnection"), {
        timeout: 60_000,
        interval: 200,
      });
      expect(arrived).toBe(3);
      // Every message is in the log once, recorded by the subscription's path.
      const recorded = (await readEvents(db)).filter((e) => e.type === "chat.message");
      expect(recorded).toHaveLength(3);
    } finally {
      await host.stop();
    }
  }, 180_000);

  it("sends to the contact's NIP-17 inbox relays when it published them", async () => {
    // A second relay: the friend's inbox, which the wallet does not use for itself.
    const inbox = await serveNostr();
    const friendSecret = generateSecretKey();
    const db = new WalletDb(`chat-${++n}`);
    const host = await openHost(db);
    try {
      const contactId = await chatWithInbox(host, friendSecret, inbox.nostr.relayUrl, "Inbox");
      ok(await host.run({ _tag: "SendMessage", contactId, text: "to your inbox" }));
      await vi.waitFor(
        async () => {
          const opened = (await wrapsFor(friendSecret, inbox.nostr.relayUrl)).map((w) =>
            nip17.unwrapEvent(w, friendSecret),
          );
          expect(opened.map((r) => r.content)).toEqual(["to your inbox"]);
        },
        { timeout: 60_000, interval: 500 },
      );
      await vi.waitFor(
        async () => {
          const page = ok<ChatPage>(await host.run({ _tag: "GetChat", contactId }));
          expect(page.entries).toMatchObject([{ type: "message", text: "to your inbox", delivery: "sent" }]);
        },
        { timeout: 30_000, interval: 500 },
      );
      // Not on the wallet's relay, which holds only the wallet's own copy.
      expect(await wrapsFor(friendSecret)).toEqual([]);
      const queued = (await readEvents(db)).filter((e) => e.type === "nostr.queued");
      expect(queued.filter((e) => e.payload.event.kind === 1059).map((e) => e.payload.relays)).toEqual([
        [inbox.nostr.relayUrl],
        undefined,
      ]);
    } finally {
      await host.stop();
      await inbox.stop();
    }
  }, 180_000);

  it("a message whose inbox relay refused it for good shows as refused, not waiting", async () => {
    // The friend's inbox: a relay that refuses every event for good (NIP-01 "blocked:").
    const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    server.on("connection", (ws) => {
      ws.on("message", (data) => {
        const [type, e] = JSON.parse(String(data)) as [string, { id: string }];
        if (type === "EVENT") ws.send(JSON.stringify(["OK", e.id, false, "blocked: no messages here"]));
      });
    });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    const inboxUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const friendSecret = generateSecretKey();
    const db = new WalletDb(`chat-${++n}`);
    const host = await openHost(db);
    try {
      const contactId = await chatWithInbox(host, friendSecret, inboxUrl, "Closed");
      ok(await host.run({ _tag: "SendMessage", contactId, text: "nobody takes this" }));
      await vi.waitFor(
        async () => {
          const page = ok<ChatPage>(await host.run({ _tag: "GetChat", contactId }));
          expect(page.entries).toMatchObject([
            { type: "message", text: "nobody takes this", delivery: "refused" },
          ]);
        },
        { timeout: 60_000, interval: 500 },
      );
      const failed = (await readEvents(db)).filter((e) => e.type === "nostr.failed");
      expect(failed.map((e) => e.payload.refusals)).toEqual([
        [{ relay: `${inboxUrl}/`, reason: "blocked: no messages here" }],
      ]);
    } finally {
      await host.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 180_000);

  it("refuses a message to a contact without an npub", async () => {
    const db = new WalletDb(`chat-${++n}`);
    const host = await openHost(db);
    try {
      ok(await host.run({ _tag: "CreateWallet" }));
      const contactId = await addContact(host, { name: "Carol", npub: "", ln_address: "carol@example.com" });
      expect(await host.run({ _tag: "SendMessage", contactId, text: "hi" })).toMatchObject({
        ok: false,
        error: { _tag: "InvalidInput", message: "Contact doesn't have a npub" },
      });
      expect(ok<ChatPage>(await host.run({ _tag: "GetChat", contactId })).entries).toEqual([]);
    } finally {
      await host.stop();
    }
  }, 60_000);
});
