import { describe, expect, it } from "vitest";
import { WalletDb } from "../../events/db";
import { KV } from "../../events/storage-keys";
import type { Engine, Platform } from "../../engine/engine";
import { lightningEngine } from "../../engine/lightning/engine";
import { ok, openOfflineHost } from "../offline.testing";

/** These tests start no engine for real: anything that reaches the platform is a mistake. */
const unusedPlatform: Platform = {
  fetch: () => Promise.reject(new Error("no network in this test")),
  makeSocket: () => {
    throw new Error("no sockets in this test");
  },
  loadLdk: () => Promise.reject(new Error("no LDK in this test")),
};

const kdf = { iterations: 1000, allowWeak: true };
let n = 0;

const openHost = (db: WalletDb, extra: { onUnlocked?: () => void } = {}) =>
  openOfflineHost(db, { kdf, ...extra });

const backedUpWallet = async () => {
  const db = new WalletDb(`password-${++n}`);
  const host = await openHost(db);
  ok(await host.run({ _tag: "CreateWallet" }));
  ok(await host.run({ _tag: "MarkBackedUp" }));
  return { db, host };
};

const change = (existing: string, password: string, confirm = password) =>
  ({ _tag: "ChangePassword", existing, password, confirm }) as const;

describe("password at rest", () => {
  it("refuses a password before the backup, mismatched confirmation and an unchanged password", async () => {
    const db = new WalletDb(`password-${++n}`);
    const host = await openHost(db);
    ok(await host.run({ _tag: "CreateWallet" }));
    expect(await host.run(change("", "pw"))).toMatchObject({
      ok: false,
      error: { key: "settings.encrypt.error_backup" },
    });
    ok(await host.run({ _tag: "MarkBackedUp" }));
    expect(await host.run(change("", "pw", "px"))).toMatchObject({
      ok: false,
      error: { key: "settings.encrypt.error_match" },
    });
    expect(await host.run(change("", ""))).toMatchObject({
      ok: false,
      error: { key: "settings.encrypt.error_same" },
    });
    expect(await host.run(change("nothing set", "pw"))).toMatchObject({
      ok: false,
      error: { _tag: "WrongPassword", message: "Incorrect password entered." },
    });
    expect(await db.kv.get(KV.vault)).toBeUndefined();
  });

  it("seals the seed and blobs, boots locked, refuses a wrong password and unlocks with the right one", async () => {
    const { db, host } = await backedUpWallet();
    const { words } = ok(await host.run({ _tag: "ShowSeed" })) as { words: string[] };
    await host.secrets.putEngineBlobs([{ key: "ln/monitor/1", value: new Uint8Array([1, 2, 3]) }]);
    expect(ok(await host.run(change("", "secret one")))).toEqual({ hasPassword: true });
    expect(host.live.has_password).toBe(true);
    expect(await host.secrets.getEngineBlob("ln/monitor/1")).toEqual(new Uint8Array([1, 2, 3]));

    let unlocked = 0;
    const again = await openHost(db, { onUnlocked: () => unlocked++ });
    expect(again.locked).toBe(true);
    expect(again.live.needs_password).toBe(true);
    expect(again.views().wallet.exists).toBe(true);
    expect(await again.run({ _tag: "ShowSeed" })).toMatchObject({
      ok: false,
      error: { _tag: "PasswordRequired" },
    });
    await expect(again.secrets.getEngineBlob("ln/monitor/1")).rejects.toMatchObject({
      _tag: "PasswordRequired",
    });
    await expect(
      again.secrets.putEngineBlobs([{ key: "ln/x", value: new Uint8Array(1) }]),
    ).rejects.toMatchObject({
      _tag: "PasswordRequired",
    });
    expect(await again.run({ _tag: "Unlock", password: "secret two" })).toMatchObject({
      ok: false,
      error: { _tag: "WrongPassword", key: "settings.decrypt.error_wrong_password" },
    });
    expect(again.locked).toBe(true);
    expect(unlocked).toBe(0);
    ok(await again.run({ _tag: "Unlock", password: "secret one" }));
    expect(again.locked).toBe(false);
    expect(again.live.needs_password).toBe(false);
    expect(unlocked).toBe(1);
    expect(ok(await again.run({ _tag: "ShowSeed" }))).toEqual({ words });
    expect(await again.secrets.getEngineBlob("ln/monitor/1")).toEqual(new Uint8Array([1, 2, 3]));
  });

  it("changes and removes the password, re-sealing everything", async () => {
    const { db, host } = await backedUpWallet();
    await host.secrets.putEngineBlobs([
      { key: "ln/manager", value: new Uint8Array([9]) },
      { key: "ln/gone", value: new Uint8Array([8]) },
    ]);
    ok(await host.run(change("", "first")));
    await host.secrets.putEngineBlobs([
      { key: "ln/gone", value: null },
      { key: "ln/monitor/2", value: new Uint8Array([7, 7]) },
    ]);
    expect(await host.secrets.listEngineBlobKeys("ln/")).toEqual(["ln/manager", "ln/monitor/2"]);
    expect(await host.run(change("wrong", "second"))).toMatchObject({
      ok: false,
      error: { _tag: "WrongPassword" },
    });
    ok(await host.run(change("first", "second")));
    const reopened = await openHost(db);
    expect(await reopened.run({ _tag: "Unlock", password: "first" })).toMatchObject({ ok: false });
    ok(await reopened.run({ _tag: "Unlock", password: "second" }));
    expect(await reopened.secrets.getEngineBlob("ln/monitor/2")).toEqual(new Uint8Array([7, 7]));
    expect(ok(await reopened.run(change("second", "")))).toEqual({ hasPassword: false });
    expect(await db.kv.get(KV.vault)).toBeUndefined();
    expect((await db.kv.get(KV.seed))?.value).toHaveProperty("mnemonic");
    expect((await db.kv.get("ln/manager"))?.value).toEqual(new Uint8Array([9]));
    const plain = await openHost(db);
    expect(plain.locked).toBe(false);
  });

  it("accepts only engine blob keys and bytes", async () => {
    const { host } = await backedUpWallet();
    await expect(
      host.secrets.putEngineBlobs([{ key: "seed", value: new Uint8Array(1) }]),
    ).rejects.toMatchObject({
      _tag: "Unexpected",
    });
    await expect(
      host.secrets.putEngineBlobs([{ key: "ln/a", value: "text" as unknown as Uint8Array }]),
    ).rejects.toMatchObject({ _tag: "Unexpected" });
    expect(await host.secrets.getEngineBlob("ln/none")).toBeUndefined();
  });

  it("a restore from the words while locked replaces the wallet and drops its password", async () => {
    const { db, host } = await backedUpWallet();
    ok(await host.run(change("", "forgotten")));
    const locked = await openHost(db);
    let unlocked = 0;
    const words =
      "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about".split(
        " ",
      );
    const again = await openHost(db, { onUnlocked: () => unlocked++ });
    expect(locked.locked && again.locked).toBe(true);
    ok(await again.run({ _tag: "RestoreWallet", words, replace: true }));
    expect(again.locked).toBe(false);
    expect(unlocked).toBe(1);
    expect(ok(await again.run({ _tag: "ShowSeed" }))).toEqual({ words });
  });

  it("an export of a wallet with a password imports elsewhere without that password", async () => {
    const { host } = await backedUpWallet();
    await host.secrets.putEngineBlobs([{ key: "ln/manager", value: new Uint8Array([4, 5]) }]);
    const { words } = ok(await host.run({ _tag: "ShowSeed" })) as { words: string[] };
    ok(await host.run(change("", "wallet pw")));
    const { json } = ok(await host.run({ _tag: "ExportState", password: "file pw" })) as { json: string };
    const other = await openHost(new WalletDb(`password-${++n}`));
    expect(await other.run({ _tag: "ImportState", text: json, password: "wallet pw" })).toMatchObject({
      ok: false,
      error: { message: "Incorrect password entered." },
    });
    ok(await other.run({ _tag: "ImportState", text: json, password: "file pw" }));
    expect(other.locked).toBe(false);
    expect(ok(await other.run({ _tag: "ShowSeed" }))).toEqual({ words });
    expect(await other.secrets.getEngineBlob("ln/manager")).toEqual(new Uint8Array([4, 5]));
  });

  it("an import into a wallet with a password keeps it and seals what came in", async () => {
    const source = await backedUpWallet();
    const { json } = ok(await source.host.run({ _tag: "ExportState", password: "file pw" })) as {
      json: string;
    };
    const { db, host } = await backedUpWallet();
    ok(await host.run(change("", "mine")));
    ok(await host.run({ _tag: "ImportState", text: json, password: "file pw" }));
    expect(host.live.has_password).toBe(true);
    expect((await db.kv.get(KV.seed))?.value).toMatchObject({ format: "vault" });
    const reopened = await openHost(db);
    expect(reopened.locked).toBe(true);
    ok(await reopened.run({ _tag: "Unlock", password: "mine" }));
    expect(ok(await reopened.run({ _tag: "ShowSeed" }))).toEqual(
      ok(await source.host.run({ _tag: "ShowSeed" })),
    );
  });

  it("starts lightning only once unlocked, and never in safe mode", async () => {
    const { db, host } = await backedUpWallet();
    ok(await host.run(change("", "pw")));
    const started: string[] = [];
    // No node starts here: this records only that the host asked for one.
    const recording: Engine<"lightning"> = {
      ...lightningEngine,
      start: async ({ mnemonic }) => {
        started.push(mnemonic);
        throw new Error("no lightning node in this test");
      },
    };
    const engines = { list: [recording], platform: unusedPlatform };
    const locked = await openOfflineHost(db, { kdf, engines });
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toHaveLength(0);
    ok(await locked.run({ _tag: "Unlock", password: "pw" }));
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toHaveLength(1);
    expect(locked.safeMode).toBe(false);

    ok(await locked.run({ _tag: "SetSafeMode", enabled: true }));
    const safe = await openOfflineHost(db, { kdf, engines });
    expect(safe.safeMode).toBe(true);
    ok(await safe.run({ _tag: "Unlock", password: "pw" }));
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toHaveLength(1);
    expect(safe.views().live.lightning).toBe("safe_mode");
  });
});
