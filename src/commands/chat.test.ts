/**
 * Private messages through the wallet's host and engine against the local world's relay (NIP-42 AUTH gates
 * gift wraps). The other party is an outside client: nostr-tools in Node (nip17, nip04, SimplePool), not the
 * wallet's code. A TCP forwarder in front of the relay plays the network going away and coming back.
 */
import { createServer, type Server, type Socket, connect } from "node:net";
import type { AddressInfo } from "node:net";
import type { EventTemplate } from "nostr-tools/core";
import { decode } from "nostr-tools/nip19";
import * as nip04 from "nostr-tools/nip04";
import * as nip17 from "nostr-tools/nip17";
import { SimplePool, useWebSocketImplementation as setPoolSocket } from "nostr-tools/pool";
import { finalizeEvent, getPublicKey, type NostrEvent } from "nostr-tools/pure";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { nodeWebSocket } from "../../harness/pipes";
import { serveNostr } from "../../harness/nostr/standalone";
import type { NostrWorld } from "../../harness/nostr/world";
import type { WalletConfig } from "../config";
import type { Platform } from "../engine/engine";
import { nostrEngine } from "../engine/nostr/engine";
import { pubkeyOf, seedSecretKey } from "../engine/nostr/keys";
import { WalletDb } from "../events/db";
import { readEvents } from "../events/log";
import { foldEvents } from "../projections";
import type { ChatPage } from "../projections/chat";
import type { CommandAnswer } from "./host";
import { WalletHost } from "./host";
import { makeStateCipher } from "./state-cipher";

setPoolSocket(WebSocket);

const cipher = makeStateCipher({ iterations: 1000, allowWeak: true });
const platform: Platform = {
  fetch: (i, init) => fetch(i, init),
  makeSocket: nodeWebSocket,
  loadLdk: async () => undefined,
  webSocket: WebSocket as unknown as typeof globalThis.WebSocket,
};

const ok = <T = unknown>(a: CommandAnswer): T => {
  if (!a.ok) throw new Error(`${a.error._tag}: ${a.error.message}`);
  return a.value as T;
};

/** A TCP forwarder to the world's port that can be taken down and brought back on the same port. */
class Link {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;
  constructor(private readonly target: number) {}
  async up(): Promise<void> {
    const server = createServer((s) => {
      const upstream = connect(this.target, "127.0.0.1");
      for (const x of [s, upstream]) {
        this.sockets.add(x);
        x.on("close", () => this.sockets.delete(x));
        x.on("error", () => x.destroy());
      }
      s.pipe(upstream);
      upstream.pipe(s);
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", () => resolve()));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }
  async down(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

let world: { nostr: NostrWorld; base: string; stop: () => Promise<void> };
let link: Link;
let n = 0;

beforeAll(async () => {
  world = await serveNostr();
  link = new Link(Number(new URL(world.base).port));
  await link.up();
});
afterAll(async () => {
  await link.down();
  await world.stop();
});

const openHost = (db: WalletDb) =>
  WalletHost.open({
    db,
    config: {
      network: "regtest",
      esplora: "http://127.0.0.1:1",
      proxy: null,
      lsp: null,
      priceSource: "",
      nostr: { relays: [`ws://127.0.0.1:${link.port}/nostr`], primal: `${world.base}/primal`, blossom: "" },
    } satisfies WalletConfig,
    cipher,
    onViews: () => undefined,
    engines: { list: [nostrEngine], platform },
  });

const secretOf = (nsec: string): Uint8Array => {
  const d = decode(nsec);
  if (d.type !== "nsec") throw new Error("not an nsec");
  return d.data;
};

/** The gift wraps addressed to `secret`'s key, read by an outside client that answers the relay's AUTH. */
const wrapsFor = async (secret: Uint8Array): Promise<NostrEvent[]> => {
  const pool = new SimplePool();
  try {
    return await pool.querySync([world.nostr.relayUrl], { kinds: [1059], "#p": [getPublicKey(secret)] }, {
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
      contactId = ok<{ id: string }>(
        await host.run({
          _tag: "CreateContact",
          name: "Alice",
          npub: alice.npub,
          ln_address: "",
          fromProfile: true,
        }),
      ).id;

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
        expect(lists[0]?.tags).toEqual([["relay", `ws://127.0.0.1:${link.port}/nostr`]]);
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
    await link.down();
    const host = await openHost(db);
    try {
      ok(await host.run({ _tag: "CreateWallet" }));
      const contactId = ok<{ id: string }>(
        await host.run({
          _tag: "CreateContact",
          name: "Bob",
          npub: bob.npub,
          ln_address: "",
          fromProfile: true,
        }),
      ).id;
      ok(await host.run({ _tag: "SendMessage", contactId, text: "typed on a train" }));
      const page = ok<ChatPage>(await host.run({ _tag: "GetChat", contactId }));
      expect(page.entries).toMatchObject([
        { type: "message", mine: true, text: "typed on a train", queued: true },
      ]);
      expect(await host.run({ _tag: "SendMessage", contactId, text: "   " })).toMatchObject({
        ok: false,
        error: { _tag: "InvalidInput" },
      });
      await link.up();
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
          expect(after.entries).toMatchObject([{ type: "message", queued: false }]);
        },
        { timeout: 30_000, interval: 500 },
      );
    } finally {
      await host.stop();
    }
  }, 180_000);

  it("refuses a message to a contact without an npub", async () => {
    const db = new WalletDb(`chat-${++n}`);
    const host = await openHost(db);
    try {
      ok(await host.run({ _tag: "CreateWallet" }));
      const contactId = ok<{ id: string }>(
        await host.run({ _tag: "CreateContact", name: "Carol", npub: "", ln_address: "carol@example.com" }),
      ).id;
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
