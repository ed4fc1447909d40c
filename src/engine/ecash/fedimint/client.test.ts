/**
 * The real Fedimint client (fedimint-client compiled to wasm) in Node, with fake-indexeddb for its
 * database and `ws` for its guardian connections. No federation can run here, so what is tested is what
 * runs without one: the client loads, reads invites as the wallet's decoder does, and joining a federation
 * whose guardians do not answer fails with the spec's message, in the engine and through the command.
 */
import "fake-indexeddb/auto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { bech32m, utf8 } from "@scure/base";
import { newEvent, type NewEvent } from "../../../events/make";
import { MemoryBlobStore } from "../../lightning/store";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { WebSocket } from "ws";
import { joinFederation as joinCommand } from "../../../commands/ecash/ecash";
import type { HandlerContext } from "../../../commands/context";
import { foldEvents } from "../../../projections";
import vectors from "../vectors/fedimint-invites.json";
import { EcashFailure } from "../port";
import { clientName, deleteClientDatabases, type FedimintLoader } from "./clients";
import { decodeInvite } from "./invite";
import { joinFederation } from "./join";
import { startFedimint } from "./live";
import { type FedimintClientClass, type FedimintGlue, instantiateFedimint } from "./wasm";
import { offlineContext } from "../../../commands/context.testing";

const require = createRequire(import.meta.url);
let loaded: Promise<FedimintClientClass> | null = null;
const load: FedimintLoader = () => {
  loaded ??= (async () => {
    const glue = (await import(
      "@fedimint/fedimint-client-wasm-bundler/fedimint_client_wasm_bg.js"
    )) as unknown as FedimintGlue;
    const bytes = readFileSync(
      require.resolve("@fedimint/fedimint-client-wasm-bundler/fedimint_client_wasm_bg.wasm"),
    );
    return instantiateFedimint(glue, bytes);
  })();
  return loaded;
};

/** An invite naming one guardian at `url` (Fedimint's consensus encoding, as invite.ts reads it). */
const inviteFor = (url: string, federationId: Uint8Array): string => {
  const u = utf8.decode(url);
  const api = new Uint8Array([u.length, ...u, 0]);
  const bytes = new Uint8Array([2, 0, api.length, ...api, 1, 32, ...federationId]);
  return bech32m.encode("fed1", bech32m.toWords(bytes), false);
};

const hadWebSocket = globalThis.WebSocket;
/** A guardian that is not one: it takes each connection and drops it at once. */
let attempts = 0;
const guardian = createServer((socket) => {
  attempts++;
  socket.destroy();
});
let port = 0;
beforeAll(async () => {
  globalThis.WebSocket = WebSocket as never;
  await new Promise<void>((r) => guardian.listen(0, "127.0.0.1", r));
  port = (guardian.address() as { port: number }).port;
});
afterAll(() => {
  globalThis.WebSocket = hadWebSocket;
  guardian.close();
});

describe("the Fedimint client", () => {
  test("loads and reads an invite as the wallet's decoder does; refuses what is not one", async () => {
    const Client = await load();
    for (const v of vectors.valid) {
      const parsed = JSON.parse(Client.parse_invite_code(v.code)) as { federation_id: string; url: string };
      const ours = decodeInvite(v.code);
      expect(parsed.federation_id).toBe(ours?.federationId);
      expect(ours?.guardians.map((g) => g.url)).toContain(parsed.url);
    }
    const local = inviteFor(`ws://127.0.0.1:${port}/`, new Uint8Array(32).fill(7));
    expect(JSON.parse(Client.parse_invite_code(local))).toEqual({
      federation_id: "07".repeat(32),
      url: `ws://127.0.0.1:${port}/`,
    });
    expect(decodeInvite(local)?.guardians).toEqual([{ url: `ws://127.0.0.1:${port}/`, peer: 0 }]);
    expect(() => Client.parse_invite_code("fed11abc")).toThrow();
    expect(decodeInvite("fed11abc")).toBeNull();
  }, 60_000);

  test("joining a federation whose guardians do not answer fails with 'Failed to connect to a federation.'", async () => {
    const invite = decodeInvite(inviteFor(`ws://127.0.0.1:${port}/`, new Uint8Array(32).fill(8)));
    if (!invite) throw new Error("the test invite does not decode");
    const error = await joinFederation(load, "regtest", invite, 3_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EcashFailure);
    expect(error).toMatchObject({ message: "Failed to connect to a federation.", unreachable: true });
    // The client itself tried to reach the invite's guardian.
    expect(attempts).toBeGreaterThan(0);
    // Asked again while the client still tries in the background: the same answer, no second client.
    const again = await joinFederation(load, "regtest", invite, 1_000).catch((e: unknown) => e);
    expect(again).toMatchObject({ message: "Failed to connect to a federation." });
  }, 60_000);

  test("the join command tries the real client and answers the spec's message, recording nothing", async () => {
    const code = inviteFor(`ws://127.0.0.1:${port}/`, new Uint8Array(32).fill(9));
    const ctx: HandlerContext = offlineContext(foldEvents([]), {
      ecash: null,
      fetch: null,
      loadFedimint: load,
    });
    const r = await Effect.runPromise(Effect.result(joinCommand({ _tag: "JoinFederation", code }, ctx)));
    expect(r._tag).toBe("Failure");
    if (r._tag === "Failure")
      expect(r.failure).toMatchObject({
        _tag: "ServerUnavailable",
        message: "Failed to connect to a federation.",
      });
  }, 120_000);

  test("deleting the wallet deletes its federation clients' databases, and nothing else", async () => {
    const name = clientName("regtest", "0a".repeat(32));
    const make = async (db: string) => {
      const req = indexedDB.open(db);
      await new Promise((r) => {
        req.onsuccess = r;
      });
      req.result.close();
    };
    // A federation client's database as the client leaves it once closed, and the wallet's own. The
    // joins above still try in the background: their databases stay until the worker ends.
    await make(name);
    await make("wallet-regtest-other");
    const names = async () => (await indexedDB.databases()).map((d) => d.name);
    expect(await names()).toContain(name);
    await deleteClientDatabases("regtest");
    expect(await names()).not.toContain(name);
    expect(await names()).toContain("wallet-regtest-other");
  }, 60_000);

  test("a federation whose client cannot open answers 'Failed to connect to a federation.'; what a crash kept is recorded at start", async () => {
    const fed = "0b".repeat(32);
    const store = new MemoryBlobStore();
    const kept = newEvent("ecash.received", {
      op: "op-1",
      mint: fed,
      amount: "1000",
      fee: "0",
      via: "lightning",
      payment_hash: null,
    });
    await store.put([
      {
        key: `ecash/fedimint/${fed}`,
        value: utf8.decode(JSON.stringify({ receives: [], pays: [], outbox: [kept] })),
      },
    ]);
    const recorded: NewEvent[] = [];
    const port = await startFedimint({
      load,
      network: "regtest",
      store,
      hooks: { mints: () => [fed], record: async (e) => void recorded.push(...e) },
    });
    expect(recorded).toEqual([kept]);
    await expect(port.balance(fed)).rejects.toMatchObject({ message: "Failed to connect to a federation." });
    await expect(port.receiveQuote(fed, 1_000n)).rejects.toMatchObject({
      message: "Failed to connect to a federation.",
    });
    await expect(port.balance("not-a-federation")).rejects.toMatchObject({
      message: "Invalid Arguments were given",
    });
    // Over every federation: one that cannot be reached is left for later, nothing is thrown.
    expect(await port.checkReceives()).toEqual([]);
    expect(await port.recover()).toEqual([]);
    await port.stop();
  }, 60_000);
});
