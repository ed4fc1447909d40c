import { Effect } from "effect";
import { generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { npubEncode } from "nostr-tools/nip19";
import { describe, expect, it } from "vitest";
import { toEvents } from "../../../property-tests/arbitraries";
import { WalletDb } from "../../events/db";
import { appendEvents, readEvents } from "../../events/log";
import { stamp } from "../../events/make";
import { KV } from "../../events/storage-keys";
import type { WalletEvent } from "../../events/types";
import { deriveViews, foldEvents } from "../../projections";
import type { Command, CommandTag, ResultOf } from "../command";
import type { HandlerContext } from "../context";
import { handlers } from "../host/handlers";
import { stateFileOf, weakStateCipher } from "../wallet/state-file.testing";
import { importState } from "../wallet/state-file";
import { offlineContext } from "../context.testing";

const npub = () => npubEncode(getPublicKey(generateSecretKey()));

/** One device of a wallet: its own log, its own device id, commands run through the real handlers. */
const device = (name: string, events: WalletEvent[] = toEvents([])) => {
  let n = 0;
  let clock = 1_700_000_100_000;
  const log = [...events];
  const ctx = (): HandlerContext =>
    offlineContext(foldEvents(log), {
      stamp: { uuid: () => `${name}-${++n}`, now: () => (clock += 1000), device: name },
    });
  const run = async <K extends CommandTag>(command: Extract<Command, { _tag: K }>): Promise<ResultOf<K>> => {
    const c = ctx();
    const handler = (handlers as Record<string, unknown>)[command._tag] as (
      cmd: typeof command,
      ctx: HandlerContext,
    ) => Effect.Effect<{ result: ResultOf<K>; events: Parameters<typeof stamp>[0] }, unknown>;
    const out = await Effect.runPromise(handler(command, c));
    log.push(...stamp(out.events, c.stamp));
    return out.result;
  };
  const fail = async (command: Command) => {
    const c = ctx();
    const handler = (handlers as Record<string, unknown>)[command._tag] as (
      cmd: Command,
      ctx: HandlerContext,
    ) => Effect.Effect<unknown, { _tag: string; key?: string; message: string }>;
    const r = await Effect.runPromise(Effect.result(handler(command, c)));
    expect(r._tag).toBe("Failure");
    return (r as unknown as { failure: { _tag: string; key?: string; message: string } }).failure;
  };
  const views = () => deriveViews(foldEvents(log));
  return { log, run, fail, views };
};

const form = { name: "Alice", npub: "", ln_address: "alice@127.0.0.1:3002" };

describe("contacts", () => {
  it("creates, edits and deletes a contact; the view lists the most recent first", async () => {
    const d = device("aa");
    const { id } = await d.run({ _tag: "CreateContact", ...form });
    const key = npub();
    const bob = await d.run({
      _tag: "CreateContact",
      name: " Bob ",
      npub: key,
      ln_address: "Bob@Example.com",
    });
    expect(d.views().contacts.map((c) => c.name)).toEqual(["Bob", "Alice"]);
    expect(d.views().contacts[0]).toMatchObject({
      npub: key,
      ln_address: "bob@example.com",
      is_followed: false,
    });

    await d.run({ _tag: "EditContact", id, name: "Alice B", npub: "", ln_address: "ab@example.com" });
    expect(d.views().contacts.find((c) => c.id === id)).toMatchObject({
      name: "Alice B",
      ln_address: "ab@example.com",
    });

    await d.run({ _tag: "SetFollowed", id: bob.id, followed: true });
    expect(d.views().contacts.find((c) => c.id === bob.id)?.is_followed).toBe(true);

    await d.run({ _tag: "DeleteContact", id });
    expect(d.views().contacts.map((c) => c.name)).toEqual(["Bob"]);
    expect(await d.fail({ _tag: "EditContact", id, ...form })).toMatchObject({
      message: "Contact not found",
    });
    expect(await d.fail({ _tag: "DeleteContact", id })).toMatchObject({ message: "Contact not found" });
  });

  it("refuses a form that breaks a rule, with the catalogue's key, and changes nothing", async () => {
    const d = device("aa");
    const before = d.log.length;
    expect(await d.fail({ _tag: "CreateContact", ...form, name: "  " })).toMatchObject({
      _tag: "InvalidInput",
      key: "contacts.error_name",
    });
    expect(await d.fail({ _tag: "CreateContact", ...form, ln_address: "" })).toMatchObject({
      key: "contacts.error_ln_address_missing",
    });
    expect(await d.fail({ _tag: "CreateContact", ...form, ln_address: "not an address" })).toMatchObject({
      key: "contacts.email_error",
    });
    expect(await d.fail({ _tag: "CreateContact", ...form, npub: "npub1nope" })).toMatchObject({
      key: "contacts.npub_error",
    });
    expect(d.log.length).toBe(before);
  });

  it("adds a searched profile once, without a lightning address if it has none", async () => {
    const d = device("aa");
    const key = npub();
    const first = await d.run({
      _tag: "CreateContact",
      name: "Carol",
      npub: key,
      ln_address: "",
      image_url: "javascript:alert(1)",
      fromProfile: true,
    });
    const again = await d.run({
      _tag: "CreateContact",
      name: "Carol",
      npub: key,
      ln_address: "",
      fromProfile: true,
    });
    expect(again).toEqual({ id: first.id, existing: true });
    expect(d.views().contacts).toHaveLength(1);
    expect(d.views().contacts[0]).toMatchObject({ ln_address: null, image_url: null });
    expect(
      await d.fail({ _tag: "CreateContact", name: "X", npub: "", ln_address: "", fromProfile: true }),
    ).toMatchObject({ key: "contacts.npub_error" });
  });

  it("shows the contact on the activity row of a payment labelled with it, and sorts it first", async () => {
    const events = toEvents([{ k: "tx", received: 5000n, sent: 0n, fee: 0n, outgoing: false, label: "x" }]);
    const d = device("aa", events);
    const a = await d.run({ _tag: "CreateContact", ...form });
    await d.run({ _tag: "CreateContact", ...form, name: "Zed" });
    const txid = d.views().activity.items[0]!.id;
    await d.run({ _tag: "SetLabels", itemId: txid, labels: [a.id] });
    // The payment is older than both contacts: Zed, created last, stays first.
    expect(d.views().activity.items[0]).toMatchObject({ labels: ["x"], contacts: [a.id] });
    await d.run({ _tag: "DeleteContact", id: a.id });
    expect(d.views().activity.items[0]).toMatchObject({ labels: ["x"], contacts: [] });
  });
});

describe("contacts merge across devices", () => {
  const cipher = weakStateCipher;
  const SEED = {
    key: KV.seed,
    value: {
      mnemonic:
        "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
    },
  };
  let n = 0;
  const dbWith = async (events: WalletEvent[]) => {
    const db = new WalletDb(`contacts-merge-${++n}`);
    await appendEvents(db, events, [SEED]);
    return db;
  };
  /** Exports `from`'s log as a state file and imports it into `into` (same wallet: a merge). */
  const exportImport = async (from: WalletEvent[], into: WalletEvent[]) => {
    const source = await dbWith(from);
    const target = await dbWith(into);
    const states = foldEvents(await readEvents(source));
    const file = await stateFileOf(source);
    await Effect.runPromise(importState(target, file.json, "pw", "regtest", states.wallet.walletId, cipher));
    const merged = await readEvents(target);
    for (const db of [source, target]) {
      db.close();
      await db.delete();
    }
    return deriveViews(foldEvents(merged));
  };

  it("keeps both devices' concurrent edits of one contact and both devices' new contacts", async () => {
    const a = device("aa");
    const { id } = await a.run({ _tag: "CreateContact", ...form });
    // The second device starts from the first one's export.
    const b = device("bb", a.log);
    await a.run({ _tag: "EditContact", id, name: "Alice Liddell", npub: "", ln_address: form.ln_address });
    const key = npub();
    await b.run({ _tag: "EditContact", id, name: "Alice", npub: key, ln_address: "al@example.com" });
    await a.run({ _tag: "CreateContact", ...form, name: "Only on A" });
    await b.run({ _tag: "CreateContact", ...form, name: "Only on B" });

    for (const merged of [await exportImport(b.log, a.log), await exportImport(a.log, b.log)]) {
      expect(merged.contacts.map((c) => c.name).sort()).toEqual(["Alice Liddell", "Only on A", "Only on B"]);
      expect(merged.contacts.find((c) => c.id === id)).toMatchObject({
        name: "Alice Liddell",
        npub: key,
        ln_address: "al@example.com",
      });
    }
  });

  it("merges the first contacts two devices ever added, before either changed anything else", async () => {
    const a = device("aa");
    const b = device("bb", a.log);
    await a.run({ _tag: "CreateContact", ...form, name: "From A" });
    await b.run({ _tag: "CreateContact", ...form, name: "From B" });
    const merged = await exportImport(b.log, a.log);
    expect(merged.contacts.map((c) => c.name).sort()).toEqual(["From A", "From B"]);
  });

  it("a delete on one device wins over an edit made concurrently on the other", async () => {
    const a = device("aa");
    const { id } = await a.run({ _tag: "CreateContact", ...form });
    const b = device("bb", a.log);
    await a.run({ _tag: "DeleteContact", id });
    await b.run({ _tag: "EditContact", id, name: "Still here?", npub: "", ln_address: form.ln_address });
    const merged = await exportImport(b.log, a.log);
    expect(merged.contacts).toEqual([]);
  });
});

describe("importing a follow list's people", () => {
  it("brings them all in followed in one change, follows the one already kept, and skips what the form refuses", async () => {
    const a = device("aa");
    const kept = npub();
    const { id: keptId } = await a.run({
      _tag: "CreateContact",
      name: "Kept",
      npub: kept,
      ln_address: "",
      fromProfile: true,
    });
    const before = a.log.length;
    const people = Array.from({ length: 1000 }, (_, i) => ({
      name: `Person ${i}`,
      npub: npub(),
      ln_address: i % 2 ? `p${i}@example.com` : "",
      image_url: "",
    }));
    const result = await a.run({
      _tag: "ImportContacts",
      contacts: [
        ...people,
        { name: "Kept again", npub: kept, ln_address: "", image_url: "" },
        { name: "No key", npub: "", ln_address: "", image_url: "" },
        { name: "", npub: npub(), ln_address: "", image_url: "" },
        people[0]!,
      ],
    });
    expect(result).toEqual({ created: 1000, followed: 1001 });
    // One event for the thousand, not one per person.
    expect(a.log.length - before).toBe(1);
    const contacts = a.views().contacts;
    expect(contacts).toHaveLength(1001);
    expect(contacts.every((c) => c.is_followed)).toBe(true);
    expect(contacts.find((c) => c.id === keptId)).toMatchObject({ name: "Kept", is_followed: true });
    expect(contacts.filter((c) => c.npub === people[1]!.npub)).toMatchObject([
      { name: "Person 1", ln_address: "p1@example.com" },
    ]);
    // Nothing new: nothing written.
    const again = a.log.length;
    expect(await a.run({ _tag: "ImportContacts", contacts: people.slice(0, 10) })).toEqual({
      created: 0,
      followed: 0,
    });
    expect(a.log.length).toBe(again);
  });
});
