/**
 * The nostr identity through the wallet's host and engine, against the local world's relay, cache service
 * and media server (harness/nostr). A TCP forwarder in front of the relay plays the network going away and
 * coming back. The wallet's events are read back with nostr-tools' SimplePool, not the wallet's own client.
 */
import { SimplePool, useWebSocketImplementation as setPoolSocket } from "nostr-tools/pool";
import { verifyEvent } from "nostr-tools/pure";
import { describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { SEEDED } from "../../../harness/nostr/people";
import { npubOf, parseNpub, pubkeyOf, seedSecretKey } from "../../engine/nostr/keys";
import { WalletDb } from "../../events/db";
import { readEvents, readKv } from "../../events/log";
import { KV } from "../../events/storage-keys";
import { isSealed } from "../wallet/at-rest";
import type { WalletHost } from "../host/host";
import { ok, openNostrHost } from "../host/host.testing";
import { nostrWorldForTests } from "./world.testing";

setPoolSocket(WebSocket);

const world = nostrWorldForTests();
let n = 0;

const configOf = (relays: string[]) => world.configOf(relays);
const viaLink = () => world.viaLink();
const openHost = (db: WalletDb, relays = viaLink()) => openNostrHost(db, configOf(relays));

/** The newest event of `kind` `pubkey` signed, as an outside client reads it from the world's relay (not through the link). */
const newestOnRelay = async (pubkey: string, kind: number) => {
  const pool = new SimplePool();
  try {
    const events = await pool.querySync([world.nostr.relayUrl], { kinds: [kind], authors: [pubkey] });
    const newest = events.sort((a, b) => b.created_at - a.created_at)[0];
    if (newest) expect(verifyEvent(newest)).toBe(true);
    return newest;
  } finally {
    pool.destroy();
  }
};

/** The newest profile (kind 0) of `pubkey` on the world's relay. */
const profileOnRelay = async (pubkey: string) => {
  const newest = await newestOnRelay(pubkey, 0);
  return newest ? (JSON.parse(newest.content) as Record<string, unknown>) : null;
};

/** The keys the newest follow list (kind 3) of `pubkey` on the world's relay follows. */
const listOnRelay = async (pubkey: string) =>
  ((await newestOnRelay(pubkey, 3))?.tags ?? []).filter((t) => t[0] === "p").map((t) => t[1]);

const seedPubkey = async (host: WalletHost) => {
  const { words } = ok<{ words: string[] }>(await host.run({ _tag: "ShowSeed" }));
  return pubkeyOf(seedSecretKey(words.join(" ")));
};

/** Waits until the wallet's outbox has sent every profile change to the relays. */
const outboxEmpty = (host: WalletHost) =>
  vi.waitFor(() => expect(host.views().profile.pending).toBe(0), { timeout: 60_000, interval: 200 });

describe("nostr keys", () => {
  it("uses the seed's NIP-06 key, imports an nsec sealed as a secret, refuses a bad one, and unlinks", async () => {
    const db = new WalletDb(`nostr-${++n}`);
    const host = await openHost(db);
    try {
      ok(await host.run({ _tag: "CreateWallet" }));
      const seed = await seedPubkey(host);
      expect(ok(await host.run({ _tag: "GetNpub" }))).toEqual({ npub: npubOf(seed), imported: false });
      expect(host.views().profile.npub).toBe(npubOf(seed));

      const before = (await readEvents(db)).length;
      const bad = await host.run({ _tag: "ImportNsec", nsec: "nsec1notakey" });
      expect(bad).toMatchObject({ ok: false, error: { _tag: "InvalidInput", message: "Invalid nsec" } });
      expect((await readEvents(db)).length).toBe(before);
      expect(await readKv(db, KV.nostrSecret)).toBeUndefined();

      // A seeded person of the world: their profile and follow list come with the key.
      const alice = world.nostr.seeded[0];
      if (!alice) throw new Error("the world has no seeded people");
      const imported = ok<{ npub: string; profileFound: boolean }>(
        await host.run({ _tag: "ImportNsec", nsec: alice.nsec }),
      );
      expect(imported).toMatchObject({ npub: alice.npub, profileFound: true });
      expect(await readKv(db, KV.nostrSecret)).toEqual({ nsec: alice.nsec });
      expect(host.views().profile).toMatchObject({ npub: alice.npub, imported: true });
      expect(host.views().profile.profile?.name).toBe(alice.name);
      const follows = (await readEvents(db)).filter(
        (e) => e.type === "nostr.fetched" && e.payload.event.kind === 3,
      );
      expect(follows.map((e) => e.type === "nostr.fetched" && e.payload.event.pubkey)).toEqual([
        alice.pubkey,
      ]);
      const exported = ok<{ nsec: string }>(await host.run({ _tag: "ExportNsec" }));
      expect(exported.nsec).toBe(alice.nsec);
      // No secret in the log.
      expect(JSON.stringify(await readEvents(db))).not.toContain(alice.nsec);

      // The people Alice follows come in as followed contacts.
      const names = SEEDED.find((p) => p.name === alice.name)?.follows ?? [];
      const followed = world.nostr.seeded.filter((p) => names.includes(p.name));
      expect(followed.length).toBeGreaterThan(1);
      await vi.waitFor(
        () =>
          expect(
            host
              .views()
              .contacts.filter((c) => c.is_followed)
              .map((c) => c.npub)
              .sort(),
          ).toEqual(followed.map((p) => p.npub).sort()),
        { timeout: 60_000, interval: 200 },
      );
      const [first, second] = followed;
      const firstContact = host.views().contacts.find((c) => c.npub === first?.npub);
      expect(firstContact?.name).toBe(first?.display_name);
      // Unfollowing one publishes the follow list without them, keeping the rest.
      ok(await host.run({ _tag: "SetFollowed", id: firstContact?.id ?? "", followed: false }));
      await vi.waitFor(
        async () => {
          const lists = await listOnRelay(alice.pubkey);
          expect(lists).not.toContain(first?.pubkey);
          expect(lists).toContain(second?.pubkey);
        },
        { timeout: 60_000, interval: 500 },
      );

      expect(ok(await host.run({ _tag: "UnlinkNostrKey" }))).toEqual({ npub: npubOf(seed) });
      expect(await readKv(db, KV.nostrSecret)).toBeUndefined();
      expect(host.views().profile).toMatchObject({ npub: npubOf(seed), imported: false });
    } finally {
      await host.stop();
    }
  });
});

describe("an imported nsec with a password", () => {
  it("is sealed at rest like the seed, and unreadable until the wallet is unlocked", async () => {
    const db = new WalletDb(`nostr-${++n}`);
    const open = () =>
      openNostrHost(db, configOf(["ws://127.0.0.1:1/nostr"]), { kdf: { iterations: 1000, allowWeak: true } });
    let host = await open();
    const bob = world.nostr.seeded[1];
    if (!bob) throw new Error("no seeded people");
    try {
      ok(await host.run({ _tag: "CreateWallet" }));
      ok(await host.run({ _tag: "MarkBackedUp" }));
      ok(
        await host.run({ _tag: "ChangePassword", existing: "", password: "pw-123456", confirm: "pw-123456" }),
      );
      ok(await host.run({ _tag: "ImportNsec", nsec: bob.nsec }));
      const raw = await readKv<unknown>(db, KV.nostrSecret);
      expect(isSealed(raw)).toBe(true);
      expect(JSON.stringify(raw)).not.toContain(bob.nsec);
    } finally {
      await host.stop();
    }
    host = await open();
    try {
      expect(await host.run({ _tag: "ExportNsec" })).toMatchObject({
        ok: false,
        error: { _tag: "PasswordRequired" },
      });
      ok(await host.run({ _tag: "Unlock", password: "pw-123456" }));
      expect(ok<{ nsec: string }>(await host.run({ _tag: "ExportNsec" })).nsec).toBe(bob.nsec);
    } finally {
      await host.stop();
    }
  });
});

describe("profile and outbox", () => {
  it("a profile made while the relay is unreachable is kept in the log and published after a reload", async () => {
    const db = new WalletDb(`nostr-${++n}`);
    await world.link.down();
    let host = await openHost(db);
    let pubkey = "";
    try {
      ok(await host.run({ _tag: "CreateWallet" }));
      pubkey = await seedPubkey(host);
      ok(await host.run({ _tag: "SetupNewProfile", name: "Offline Olga", imageUrl: null }));
      expect(host.views().profile).toMatchObject({ pending: 1, profile: { name: "Offline Olga" } });
    } finally {
      await host.stop();
    }
    expect(await profileOnRelay(pubkey)).toBeNull();
    // The tab is reloaded with the network back: the outbox folds from the log and goes out.
    await world.link.up();
    host = await openHost(db);
    try {
      await outboxEmpty(host);
      expect(await profileOnRelay(pubkey)).toMatchObject({
        name: "Offline Olga",
        display_name: "Offline Olga",
      });
    } finally {
      await host.stop();
    }
  });

  it("an outside client reads the profile, and sees an edit made offline once the relay is back", async () => {
    const host = await openHost(new WalletDb(`nostr-${++n}`));
    try {
      ok(await host.run({ _tag: "CreateWallet" }));
      const pubkey = await seedPubkey(host);
      const png = new Uint8Array([
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0,
        0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89, 0, 0, 0, 13, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63,
        0xf8, 0xcf, 0xc0, 0xf0, 0x1f, 0, 5, 0, 1, 0xff, 0x89, 0x99, 0x3d, 0x1d, 0, 0, 0, 0, 0x49, 0x45, 0x4e,
        0x44, 0xae, 0x42, 0x60, 0x82,
      ]);
      const { url } = ok<{ url: string }>(
        await host.run({ _tag: "UploadProfilePic", bytes: png, type: "image/png" }),
      );
      expect(new Uint8Array(await (await fetch(url)).arrayBuffer())).toEqual(png);
      ok(await host.run({ _tag: "SetupNewProfile", name: "Paula", imageUrl: url }));
      await outboxEmpty(host);
      expect(await profileOnRelay(pubkey)).toMatchObject({ name: "Paula", picture: url });

      const refused = await host.run({
        _tag: "EditNostrProfile",
        nym: "Paula",
        imageUrl: url,
        lightningAddress: "not an address",
      });
      expect(refused).toMatchObject({ ok: false, error: { key: "contacts.email_error" } });

      await world.link.down();
      ok(
        await host.run({
          _tag: "EditNostrProfile",
          nym: "Paula P",
          imageUrl: url,
          lightningAddress: "paula@example.com",
        }),
      );
      expect(host.views().profile).toMatchObject({
        pending: 1,
        profile: { name: "Paula P", lud16: "paula@example.com" },
      });
      expect(await profileOnRelay(pubkey)).toMatchObject({ name: "Paula" });
      await world.link.up();
      await outboxEmpty(host);
      expect(await profileOnRelay(pubkey)).toMatchObject({
        name: "Paula P",
        lud16: "paula@example.com",
        picture: url,
      });

      // Deleting publishes a profile marked deleted, which the wallet honours.
      ok(await host.run({ _tag: "DeleteProfile" }));
      await outboxEmpty(host);
      expect(host.views().profile.profile?.deleted).toBe(true);
      expect(await profileOnRelay(pubkey)).toMatchObject({ deleted: true });
    } finally {
      await host.stop();
    }
  });

  it("profile edits made on two devices of one wallet merge through export and import to the same profile", async () => {
    const a = await openHost(new WalletDb(`nostr-${++n}`), ["ws://127.0.0.1:1/nostr"]);
    const b = await openHost(new WalletDb(`nostr-${++n}`), ["ws://127.0.0.1:1/nostr"]);
    try {
      ok(await a.run({ _tag: "CreateWallet" }));
      ok(await a.run({ _tag: "SetupNewProfile", name: "On A", imageUrl: null }));
      const first = ok<{ json: string }>(await a.run({ _tag: "ExportState", password: "pw" }));
      ok(await b.run({ _tag: "ImportState", text: first.json, password: "pw" }));
      expect(b.views().profile.profile?.name).toBe("On A");
      // Both devices edit while apart; B's edit is the later one.
      ok(await a.run({ _tag: "EditNostrProfile", nym: "Edited on A", imageUrl: null, lightningAddress: "" }));
      ok(
        await b.run({
          _tag: "EditNostrProfile",
          nym: "Edited on B",
          imageUrl: null,
          lightningAddress: "b@example.com",
        }),
      );
      const fromB = ok<{ json: string }>(await b.run({ _tag: "ExportState", password: "pw" }));
      ok(await a.run({ _tag: "ImportState", text: fromB.json, password: "pw" }));
      const fromA = ok<{ json: string }>(await a.run({ _tag: "ExportState", password: "pw" }));
      ok(await b.run({ _tag: "ImportState", text: fromA.json, password: "pw" }));
      // Both devices now agree on one profile: the newer edit (NIP-01's rule for replaceable events).
      const merged = a.views().profile;
      expect(b.views().profile.profile).toEqual(merged.profile);
      expect(b.views().profile.updated_at).toBe(merged.updated_at);
      expect(["Edited on A", "Edited on B"]).toContain(merged.profile?.name);
      // Only the winning edit still waits for a relay (the network never came); replaced ones are not sent.
      expect(merged.pending).toBe(1);
      expect(b.views().profile.pending).toBe(1);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it("says 'Missing PRIMAL_API environment variable' when no cache service is set and no relay answers", async () => {
    const db = new WalletDb(`nostr-${++n}`);
    const host = await openNostrHost(db, {
      ...configOf(["ws://127.0.0.1:1/nostr"]),
      nostr: { relays: ["ws://127.0.0.1:1/nostr"], primal: "", blossom: "" },
    });
    try {
      ok(await host.run({ _tag: "CreateWallet" }));
      expect(await host.run({ _tag: "GetNostrProfile" })).toMatchObject({
        ok: false,
        error: { message: "Missing PRIMAL_API environment variable" },
      });
    } finally {
      await host.stop();
    }
  });

  it("reads another person's profile from the relay, else from the cache service", async () => {
    const db = new WalletDb(`nostr-${++n}`);
    const bob = world.nostr.seeded[1];
    if (!bob) throw new Error("the world has no seeded people");
    // No relay reachable at all: the cache service answers.
    const host = await openHost(db, ["ws://127.0.0.1:1/nostr"]);
    try {
      ok(await host.run({ _tag: "CreateWallet" }));
      const profile = ok<{ name: string | null }>(
        await host.run({ _tag: "GetNostrProfile", npub: bob.npub }),
      );
      expect(profile.name).toBe(bob.name);
      expect(parseNpub(bob.npub)).toBe(bob.pubkey);
    } finally {
      await host.stop();
    }
  });
});
