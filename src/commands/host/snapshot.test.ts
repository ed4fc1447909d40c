import { describe, expect, it } from "vitest";
import { WalletDb } from "../../events/db";
import { joinedCashu, dropDbs } from "../../events/events.testing";
import { appendEvents, readEvents } from "../../events/log";
import { stamp } from "../../events/make";
import { deriveViews, foldEvents } from "../../projections";
import { openLog } from "./open";
import { STATES_SNAPSHOT } from "./snapshot";
import { ok, openOfflineHost } from "../offline.testing";

/**
 * A restart starts from the snapshot of the folded log (and the events after it) and shows what folding
 * the whole log shows; a log replaced or emptied since is folded anew.
 */

const NOW = 1_800_000_000_000;
const open = (db: WalletDb) => openOfflineHost(db, { now: () => NOW });
const ofLog = async (db: WalletDb) => deriveViews(foldEvents(await readEvents(db)), NOW);
const viewsOf = async (db: WalletDb) => {
  const host = await open(db);
  const { live: _live, ...views } = host.views();
  await host.stop();
  return views;
};
const opened = (db: WalletDb) =>
  openLog({ db, config: {} as never, cipher: {} as never, onViews: () => undefined });

const contact = (name: string) => ({
  _tag: "CreateContact" as const,
  name,
  npub: "",
  ln_address: `${name.toLowerCase()}@127.0.0.1:3002`,
});

describe("a restart from the snapshot of the folded log", () => {
  it("shows the views of the whole log, with the events after the snapshot folded in", async () => {
    const db = new WalletDb("host-snapshot-restart");
    const first = await open(db);
    ok(await first.run({ _tag: "CreateWallet" }));
    const { id } = ok<{ id: string }>(await first.run(contact("Alice")));
    ok(await first.run({ _tag: "SetLabels", itemId: "tx:00", labels: ["rent"] }));
    // Stopping writes the snapshot a moment before it was due.
    await first.stop();
    const kept = await db.snapshots.get(STATES_SNAPSHOT);
    expect(kept?.seq).toBe((await readEvents(db)).at(-1)?.seq);
    expect((await opened(db)).fromSnapshot).toBe(true);

    const second = await open(db);
    ok(await second.run(contact("Bob")));
    ok(
      await second.run({
        _tag: "EditContact",
        id,
        name: "Alice B",
        npub: "",
        ln_address: "alice@127.0.0.1:3002",
      }),
    );
    await second.stop();
    // The snapshot taken before Bob: the next start folds Bob and the edit on top of it.
    await db.snapshots.put(kept as NonNullable<typeof kept>);
    const resumed = await opened(db);
    expect(resumed.fromSnapshot).toBe(true);
    expect(deriveViews(resumed.states, NOW)).toEqual(await ofLog(db));
    const views = await viewsOf(db);
    expect(views).toEqual(await ofLog(db));
    expect(views.contacts.map((c) => c.name).sort()).toEqual(["Alice B", "Bob"]);
    expect(views.settings).toEqual((await ofLog(db)).settings);
    await dropDbs(db);
  });

  it("events written to the log past the running host are not hidden from the next start", async () => {
    const db = new WalletDb("host-snapshot-past");
    const first = await open(db);
    ok(await first.run({ _tag: "CreateWallet" }));
    await first.stop();
    const host = await open(db);
    // Written past the host (as a crash between two writes leaves them): the host never folds it.
    const past = { uuid: () => "past-the-host", now: () => NOW, device: "other" };
    await appendEvents(db, stamp([joinedCashu("http://127.0.0.1:3338", "Past mint")], past));
    ok(await host.run(contact("Erin")));
    await host.stop();
    const views = await viewsOf(db);
    expect(views).toEqual(await ofLog(db));
    expect(views.contacts.map((c) => c.name)).toEqual(["Erin"]);
    expect(views.federations.map((f) => f.federation_name)).toEqual(["Past mint"]);
    await dropDbs(db);
  });

  it("a log replaced by an import, or emptied, is folded anew", async () => {
    const other = new WalletDb("host-snapshot-other");
    const theirs = await open(other);
    ok(await theirs.run({ _tag: "CreateWallet" }));
    ok(await theirs.run(contact("Carol")));
    const file = ok<{ json: string }>(await theirs.run({ _tag: "ExportState", password: "file password" }));
    await theirs.stop();

    const db = new WalletDb("host-snapshot-import");
    const mine = await open(db);
    ok(await mine.run({ _tag: "CreateWallet" }));
    ok(await mine.run(contact("Dave")));
    await mine.stop();
    expect((await opened(db)).fromSnapshot).toBe(true);

    const again = await open(db);
    ok(await again.run({ _tag: "ImportState", text: file.json, password: "file password" }));
    expect((await opened(db)).fromSnapshot).toBe(false);
    await again.stop();
    const imported = await viewsOf(db);
    expect(imported).toEqual(await ofLog(db));
    expect(imported.contacts.map((c) => c.name)).toEqual(["Carol"]);

    const last = await open(db);
    ok(await last.run({ _tag: "DeleteEverything" }));
    await last.stop();
    expect(await db.snapshots.get(STATES_SNAPSHOT)).toBeUndefined();
    expect((await viewsOf(db)).wallet.exists).toBe(false);
    await dropDbs(db, other);
  });
});
