import { describe, expect, it } from "vitest";
import { WalletDb } from "../../events/db";
import { countEvents, readEvents } from "../../events/log";
import { deriveViews, foldEvents } from "../../projections";
import type { AllViews } from "../../projections/live";
import { ok, openOfflineHost } from "../offline.testing";

let n = 0;

const openHost = async (name = `host-${++n}`) => {
  const pushed: Partial<AllViews>[] = [];
  const db = new WalletDb(name);
  const host = await openOfflineHost(db, { onViews: (v) => pushed.push(v) });
  return { host, db, pushed };
};

describe("WalletHost", () => {
  it("creates a wallet, pushes views, and the log on disk folds to the same views", async () => {
    const { host, db, pushed } = await openHost();
    expect(host.views().wallet.exists).toBe(false);
    ok(await host.run({ _tag: "CreateWallet" }));
    expect(pushed.at(-1)?.wallet?.exists).toBe(true);
    ok(await host.run({ _tag: "SetFiat", code: "EUR" }));
    expect(host.views().settings.fiat).toBe("EUR");
    const { live: _live, ...views } = host.views();
    expect(deriveViews(foldEvents(await readEvents(db)))).toEqual(views);
  });

  it("creates a wallet before Automerge's wasm has loaded; an edit of the document waits for it", async () => {
    let loaded = () => {};
    const crdtReady = new Promise<void>((r) => {
      loaded = r;
    });
    const db = new WalletDb(`host-${++n}`);
    const host = await openOfflineHost(db, { crdtReady });
    ok(await host.run({ _tag: "CreateWallet" }));
    expect(host.views().wallet.exists).toBe(true);
    expect(host.views().settings.fiat).toBe("USD");
    let answered = false;
    const fiat = host.run({ _tag: "SetFiat", code: "EUR" }).then((a) => {
      answered = true;
      return a;
    });
    await new Promise((r) => setTimeout(r, 30));
    expect(answered).toBe(false);
    loaded();
    ok(await fiat);
    expect(host.views().settings.fiat).toBe("EUR");
    const { live: _live, ...views } = host.views();
    expect(deriveViews(foldEvents(await readEvents(db)))).toEqual(views);
  });

  it("refuses a second wallet and an unknown currency, and appends nothing", async () => {
    const { host, db } = await openHost();
    ok(await host.run({ _tag: "CreateWallet" }));
    const before = (await readEvents(db)).length;
    const again = await host.run({ _tag: "CreateWallet" });
    expect(again).toMatchObject({ ok: false, error: { _tag: "WalletState" } });
    const bad = await host.run({ _tag: "SetFiat", code: "XXX" });
    expect(bad).toMatchObject({
      ok: false,
      error: { _tag: "InvalidInput", key: "settings.currency.error_unsupported_currency" },
    });
    expect((await readEvents(db)).length).toBe(before);
  });

  it("shows 12 seed words and marks the wallet backed up once", async () => {
    const { host, db } = await openHost();
    ok(await host.run({ _tag: "CreateWallet" }));
    const { words } = ok(await host.run({ _tag: "ShowSeed" })) as { words: string[] };
    expect(words).toHaveLength(12);
    ok(await host.run({ _tag: "MarkBackedUp" }));
    ok(await host.run({ _tag: "MarkBackedUp" }));
    expect(host.views().wallet.has_backed_up).toBe(true);
    expect((await readEvents(db)).filter((e) => e.type === "wallet.backed_up")).toHaveLength(1);
    // The seed never appears in the log.
    expect(JSON.stringify(await readEvents(db))).not.toContain(words.join(" "));
  });

  it("restores from words, refusing a wrong count, a word not in the list and a bad checksum", async () => {
    const { host } = await openHost();
    const words =
      "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about".split(
        " ",
      );
    expect(await host.run({ _tag: "RestoreWallet", words: words.slice(1) })).toMatchObject({
      ok: false,
      error: { key: "settings.restore.error_word_number" },
    });
    expect(await host.run({ _tag: "RestoreWallet", words: [...words.slice(1), "bitcoinz"] })).toMatchObject({
      ok: false,
      error: { key: "settings.restore.wrong_word" },
    });
    expect(await host.run({ _tag: "RestoreWallet", words: [...words.slice(1), "abandon"] })).toMatchObject({
      ok: false,
      error: { key: "settings.restore.error_invalid_seed" },
    });
    ok(await host.run({ _tag: "RestoreWallet", words }));
    expect(host.views().wallet).toMatchObject({ exists: true, has_backed_up: true });
    expect(ok(await host.run({ _tag: "ShowSeed" }))).toEqual({ words });
  });

  it("replaces a wallet by restoring only once the words are right", async () => {
    const { host } = await openHost();
    ok(await host.run({ _tag: "CreateWallet" }));
    const before = host.views().wallet.walletId;
    const words =
      "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about".split(
        " ",
      );
    expect(await host.run({ _tag: "RestoreWallet", words })).toMatchObject({
      ok: false,
      error: { _tag: "WalletState" },
    });
    expect(await host.run({ _tag: "RestoreWallet", words: words.slice(1), replace: true })).toMatchObject({
      ok: false,
    });
    expect(host.views().wallet.walletId).toBe(before);
    ok(await host.run({ _tag: "RestoreWallet", words, replace: true }));
    expect(host.views().wallet.walletId).not.toBe(before);
    expect(ok(await host.run({ _tag: "ShowSeed" }))).toEqual({ words });
  });

  it("exports with a password, deletes everything, and imports the same views back", async () => {
    const { host, db } = await openHost();
    ok(await host.run({ _tag: "CreateWallet" }));
    ok(await host.run({ _tag: "SetFiat", code: "JPY" }));
    ok(await host.run({ _tag: "SetSafeMode", enabled: true }));
    const { words } = ok(await host.run({ _tag: "ShowSeed" })) as { words: string[] };
    expect(await host.run({ _tag: "ExportState", password: "" })).toMatchObject({
      ok: false,
      error: { key: "settings.emergency_kit.import_export.error_password" },
    });
    const { json, fileName } = ok(await host.run({ _tag: "ExportState", password: "pw" })) as {
      json: string;
      fileName: string;
    };
    expect(fileName).toBe("mutiny-state.json");
    expect(json).not.toContain(words[0] === words[1] ? "" : words.join(" "));
    const before = host.views();

    ok(await host.run({ _tag: "DeleteEverything" }));
    expect(host.views().wallet.exists).toBe(false);
    expect(await countEvents(db)).toBe(0);

    expect(await host.run({ _tag: "ImportState", text: json })).toMatchObject({
      ok: false,
      error: { _tag: "PasswordRequired" },
    });
    expect(await host.run({ _tag: "ImportState", text: json, password: "nope" })).toMatchObject({
      ok: false,
      error: { _tag: "WrongPassword", message: "Incorrect password entered." },
    });
    ok(await host.run({ _tag: "ImportState", text: json, password: "pw" }));
    const { live: _a, ...after } = host.views();
    const { live: _b, ...expected } = before;
    expect(after).toEqual(expected);
    expect(ok(await host.run({ _tag: "ShowSeed" }))).toEqual({ words });
  });

  it("after an import, replacing or merging, the views are the fold of the log on disk", async () => {
    const { host, db } = await openHost();
    ok(await host.run({ _tag: "CreateWallet" }));
    ok(await host.run({ _tag: "SetFiat", code: "JPY" }));
    const { json } = ok(await host.run({ _tag: "ExportState", password: "pw" })) as { json: string };
    ok(await host.run({ _tag: "SetFiat", code: "EUR" }));
    const onDisk = async () => deriveViews(foldEvents(await readEvents(db)));
    // The same wallet: the file's events merge into this log.
    ok(await host.run({ _tag: "ImportState", text: json, password: "pw" }));
    const { live: _a, ...merged } = host.views();
    expect(merged).toEqual(await onDisk());
    // Another device's copy of it, into a browser with none: the file becomes the log.
    const other = await openHost();
    ok(await other.host.run({ _tag: "ImportState", text: json, password: "pw" }));
    const { live: _b, ...replaced } = other.host.views();
    expect(replaced).toEqual(deriveViews(foldEvents(await readEvents(other.db))));
    expect(replaced.settings.fiat).toBe("JPY");
  });

  it("refuses empty, non-JSON, foreign and other-network files with their messages", async () => {
    const { host } = await openHost();
    const key = (k: string) => ({ ok: false, error: { key: `settings.emergency_kit.import_export.${k}` } });
    expect(await host.run({ _tag: "ImportState", text: "  " })).toMatchObject(key("error_no_text"));
    expect(await host.run({ _tag: "ImportState", text: "{nope" })).toMatchObject(key("error_invalid_json"));
    expect(await host.run({ _tag: "ImportState", text: '{"format":"other"}' })).toMatchObject(
      key("error_format"),
    );
    expect(
      await host.run({
        _tag: "ImportState",
        text: '{"format":"mutiny-state","version":2,"network":"regtest","sealed":{}}',
      }),
    ).toMatchObject(key("error_version"));
    expect(
      await host.run({
        _tag: "ImportState",
        text: '{"format":"mutiny-state","version":1,"network":"bitcoin","sealed":{}}',
      }),
    ).toMatchObject({
      ok: false,
      error: {
        key: "settings.emergency_kit.import_export.error_network",
        message: "This file is for bitcoin but this wallet runs on regtest.",
      },
    });
  });
});
