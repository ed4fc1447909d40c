/**
 * The outbox against relays that refuse: the world's relay refusing for good an edit its author deleted
 * (NIP-09, "blocked:"), and a relay that puts events off ("rate-limited:", "error:") before taking them.
 * The deletion is published with nostr-tools' own relay client, not the wallet's.
 */
import type { AddressInfo } from "node:net";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { useWebSocketImplementation as relayWebSocket } from "nostr-tools/relay";
import { beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { serveNostr } from "../../../harness/nostr/standalone";
import type { NostrWorld } from "../../../harness/nostr/world";
import type { NostrEvent } from "./event";
import { Outbox, type Refusal } from "./outbox";
import { answerKind, RelaySet } from "./relays";
import { stopAfterAll } from "../../../harness/stop-after-all";
import { publishFromOutside } from "../../../harness/nostr/outside";

relayWebSocket(WebSocket);
const socket = WebSocket as unknown as typeof globalThis.WebSocket;
const now = () => Math.floor(Date.now() / 1000);

let world: { nostr: NostrWorld; base: string; stop: () => Promise<void> };
beforeAll(async () => {
  world = await serveNostr();
});
stopAfterAll(() => [world]);

describe("a relay's refusal", () => {
  it("is final for blocked, invalid, pow and restricted; held for duplicate; anything else may pass later", () => {
    expect(answerKind("blocked: deleted by its author")).toBe("final");
    expect(answerKind("invalid: bad signature")).toBe("final");
    expect(answerKind("pow: difficulty 25 is less than 30")).toBe("final");
    expect(answerKind("restricted: not allowed to write")).toBe("final");
    expect(answerKind("duplicate: already have this event")).toBe("held");
    expect(answerKind("rate-limited: slow down")).toBe("retry");
    expect(answerKind("error: could not connect to the database")).toBe("retry");
    expect(answerKind("auth-required: we only accept events from registered users")).toBe("retry");
    expect(answerKind("publish timed out")).toBe("retry");
    expect(answerKind("relay connection closed")).toBe("retry");
    expect(answerKind("")).toBe("retry");
    // A prefix is the start of the message, not a word in it.
    expect(answerKind("error: blocked: upstream")).toBe("retry");
  });
});

/** An outbox over `urls` whose log is `queue`: published and failed events leave it, as the host's fold does. */
const outboxOver = (urls: string[], queue: NostrEvent[]) => {
  const published: { id: string; relay: string }[] = [];
  const failed: { id: string; refusals: readonly Refusal[] }[] = [];
  const done = new Set<string>();
  let outbox: Outbox | null = null;
  const relays = new RelaySet(urls, socket, () => outbox?.flush());
  outbox = new Outbox(
    relays,
    {
      pending: () => queue.filter((e) => !done.has(e.id)),
      published: async (id, relay) => {
        done.add(id);
        published.push({ id, relay });
      },
      failed: async (id, refusals) => {
        done.add(id);
        failed.push({ id, refusals });
      },
    },
    50,
  );
  relays.start();
  return {
    published,
    failed,
    stop: () => {
      outbox?.stop();
      relays.stop();
    },
  };
};

/** A relay that answers each EVENT as `answer` says for the how-many-th time it sees it. */
const scriptedRelay = async (answer: (times: number) => [boolean, string]) => {
  const seen = new Map<string, number>();
  const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  server.on("connection", (ws) => {
    ws.on("message", (data) => {
      const [type, e] = JSON.parse(String(data)) as [string, { id: string }];
      if (type !== "EVENT") return;
      const times = (seen.get(e.id) ?? 0) + 1;
      seen.set(e.id, times);
      ws.send(JSON.stringify(["OK", e.id, ...answer(times)]));
    });
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** A profile of `sk`'s key, and its deletion (NIP-09, by address) published to the world's relay first. */
const deletedProfile = async () => {
  const sk = generateSecretKey();
  const deletion = finalizeEvent(
    { kind: 5, created_at: now() + 300, tags: [["a", `0:${getPublicKey(sk)}:`]], content: "" },
    sk,
  );
  await publishFromOutside(world.nostr.relayUrl, deletion);
  const profile = finalizeEvent(
    { kind: 0, created_at: now(), tags: [], content: '{"name":"Gone"}' },
    sk,
  ) as NostrEvent;
  const note = finalizeEvent(
    { kind: 1, created_at: now(), tags: [], content: "still fine" },
    sk,
  ) as NostrEvent;
  return { profile, note };
};

describe("the outbox", () => {
  it("records an event every relay refused for good as failed, once, and sends the others", async () => {
    const { profile, note } = await deletedProfile();
    const o = outboxOver([world.nostr.relayUrl], [profile, note]);
    try {
      await vi.waitFor(() => expect(o.failed).toHaveLength(1), { timeout: 30_000, interval: 50 });
      await vi.waitFor(() => expect(o.published).toHaveLength(1), { timeout: 30_000, interval: 50 });
      expect(o.failed[0]).toEqual({
        id: profile.id,
        refusals: [{ relay: world.nostr.relayUrl, reason: "blocked: deleted by its author" }],
      });
      expect(o.published[0]).toEqual({ id: note.id, relay: world.nostr.relayUrl });
    } finally {
      o.stop();
    }
  });

  it("keeps trying a relay that puts an event off, and does not fail it while a relay may still take it", async () => {
    const { profile } = await deletedProfile();
    // Rate-limited, then an error, then taken.
    const busy = await scriptedRelay((times) =>
      times === 1
        ? [false, "rate-limited: slow down"]
        : times === 2
          ? [false, "error: try again"]
          : [true, ""],
    );
    const o = outboxOver([world.nostr.relayUrl, busy.url], [profile]);
    try {
      await vi.waitFor(() => expect(o.published).toHaveLength(1), { timeout: 60_000, interval: 50 });
      expect(o.published[0]).toEqual({ id: profile.id, relay: busy.url });
      expect(busy.seen.get(profile.id)).toBe(3);
      expect(o.failed).toEqual([]);
    } finally {
      o.stop();
      await busy.close();
    }
  });

  it("never fails an event that relays only put off", async () => {
    const { note } = await deletedProfile();
    const busy = await scriptedRelay(() => [false, "rate-limited: slow down"]);
    const o = outboxOver([busy.url], [note]);
    try {
      await vi.waitFor(() => expect(busy.seen.get(note.id)).toBeGreaterThanOrEqual(3), {
        timeout: 60_000,
        interval: 50,
      });
      expect(o.failed).toEqual([]);
      expect(o.published).toEqual([]);
    } finally {
      o.stop();
      await busy.close();
    }
  });
});
