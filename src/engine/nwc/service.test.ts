/**
 * The wallet-connect service against a flooding world, over the world's relay (alone, without the chain):
 * strangers writing to a connection's key get no answer, one connection's flood is rate-limited, and a
 * relay message larger than any NIP-47 request is dropped unread. Requests are signed and encrypted with
 * nostr-tools as an app (or an attacker) would; what the wallet decides is a counter here, since the
 * service decides nothing itself.
 */
import { generateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { AbstractSimplePool } from "nostr-tools/abstract-pool";
import type { Event } from "nostr-tools/core";
import { v2 as nip44 } from "nostr-tools/nip44";
import { finalizeEvent, generateSecretKey, verifyEvent } from "nostr-tools/pure";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { serveNostr } from "../../../harness/nostr/standalone";
import { until } from "../../../harness/until";
import type { WebSocketFactory } from "../lightning/socket";
import { nwcKeys } from "./keys";
import { MAX_RELAY_MESSAGE, REFUSAL_BURST, REQUEST_BURST } from "./limits";
import { success } from "./protocol";
import { type IncomingRequest, type NwcPort, startNwcService } from "./service";

let world: Awaited<ReturnType<typeof serveNostr>>;
let relay: string;
const pool = new AbstractSimplePool({
  verifyEvent,
  websocketImplementation: WebSocket as never,
  maxWaitForConnection: 10_000,
});
const makeSocket: WebSocketFactory = (url) => new WebSocket(url) as never;
const INDEX = 1000;
let service: NwcPort | null = null;

beforeAll(async () => {
  world = await serveNostr();
  relay = world.nostr.relayUrl;
  // A flood of publishes waits on the relay's OKs in turn: on a busy machine that takes longer than the
  // client's default few seconds.
  (await pool.ensureRelay(relay)).publishTimeout = 60_000;
});
afterEach(async () => {
  await service?.stop();
  service = null;
});
afterAll(async () => {
  pool.destroy();
  await world.stop();
});

/** A service with one connection whose wallet answers every request; `seen` is what reached the wallet. */
const serve = async (now?: () => number) => {
  const mnemonic = generateMnemonic(wordlist);
  const seen: IncomingRequest[] = [];
  service = await startNwcService(relay, mnemonic, makeSocket, {
    now,
    connections: () => [{ index: INDEX, appPubkey: null }],
    since: () => Math.floor(Date.now() / 1000) - 60,
    request: async (r) => {
      seen.push(r);
      return [{ response: success(r.method, { balance: 0 }) }];
    },
  });
  return { port: service, seen, keys: nwcKeys(mnemonic, INDEX) };
};

/** A request to `servicePubkey` signed by `secret`, its content as given (encrypted, or any text). */
const request = (secret: Uint8Array, servicePubkey: string, content: string): Event =>
  finalizeEvent(
    {
      kind: 23194,
      created_at: Math.floor(Date.now() / 1000),
      tags: [
        ["p", servicePubkey],
        ["encryption", "nip44_v2"],
      ],
      content,
    },
    secret,
  );

const encrypted = (secret: Uint8Array, servicePubkey: string, method: string) =>
  nip44.encrypt(
    JSON.stringify({ method, params: {} }),
    nip44.utils.getConversationKey(secret, servicePubkey),
  );

/** Every response the service signs from now on. */
const responses = (servicePubkey: string) => {
  const got: Event[] = [];
  const sub = pool.subscribe(
    [relay],
    { kinds: [23195], authors: [servicePubkey] },
    { onevent: (e) => got.push(e) },
  );
  return { got, close: () => sub.close() };
};

const publish = (e: Event) => Promise.any(pool.publish([relay], e));

/** Publishes `n` events made by `make`, fifty at a time (a flood arrives at once, not paced by its OKs). */
const burst = async (n: number, make: () => Event) => {
  for (let i = 0; i < n; i += 50)
    await Promise.all(Array.from({ length: Math.min(50, n - i) }, () => publish(make())));
};

/** A get_balance request of the connection's own app. */
const fromApp = (keys: ReturnType<typeof nwcKeys>) =>
  request(
    keys.clientSecret,
    keys.servicePubkey,
    encrypted(keys.clientSecret, keys.servicePubkey, "get_balance"),
  );

describe("the wallet-connect service under a flood", () => {
  it("answers no request from a key that is no connection: strangers get zero replies", async () => {
    const { port, seen, keys } = await serve();
    const out = responses(keys.servicePubkey);
    const strangers = 300;
    await burst(strangers, () => {
      const secret = generateSecretKey();
      return request(secret, keys.servicePubkey, encrypted(secret, keys.servicePubkey, "get_balance"));
    });
    await until("every stranger's request seen", () => port.dropped().strangers === strangers, 60_000);
    // The connection's own app is still answered, after them.
    await publish(fromApp(keys));
    await until("the app answered", () => out.got.length > 0, 30_000);
    expect(out.got.map((e) => e.tags.find((t) => t[0] === "p")?.[1])).toEqual([keys.clientPubkey]);
    expect(seen).toHaveLength(1);
    out.close();
  }, 120_000);

  it("limits a flood from one connection: past its rate RATE_LIMITED, then silence, never one answer per request", async () => {
    // The rates are counted on a clock that stands still, so however slowly the flood arrives no request
    // and no refusal is earned back meanwhile: exactly the bursts pass.
    const frozen = Date.now();
    const { port, seen, keys } = await serve(() => frozen);
    const out = responses(keys.servicePubkey);
    const flood = 200;
    await burst(flood, () => fromApp(keys));
    await until("the whole flood seen", () => seen.length + port.dropped().limited === flood, 60_000);
    expect(seen).toHaveLength(REQUEST_BURST);
    expect(port.dropped().limited).toBe(flood - REQUEST_BURST);
    await until("every answer out", () => out.got.length >= REQUEST_BURST + REFUSAL_BURST, 30_000);
    const key = nip44.utils.getConversationKey(keys.clientSecret, keys.servicePubkey);
    const texts = out.got.map((e) => nip44.decrypt(e.content, key));
    // Refusals have their own rate: past them the rest of the flood gets no answer at all.
    expect(texts.filter((t) => t.includes("RATE_LIMITED"))).toHaveLength(REFUSAL_BURST);
    expect(out.got).toHaveLength(REQUEST_BURST + REFUSAL_BURST);
    out.close();
  }, 120_000);

  it("drops a relay message larger than any wallet-connect request unread, and counts it", async () => {
    const { port, seen, keys } = await serve();
    const out = responses(keys.servicePubkey);
    const big = request(keys.clientSecret, keys.servicePubkey, "A".repeat(MAX_RELAY_MESSAGE + 1_000));
    await publish(big);
    await until("dropped", () => port.dropped().oversized > 0, 30_000);
    expect(seen).toHaveLength(0);
    // A request of ordinary size is read and answered as before.
    await publish(fromApp(keys));
    await until("answered", () => out.got.length > 0, 30_000);
    expect(seen).toHaveLength(1);
    expect(port.dropped().oversized).toBe(1);
    out.close();
  }, 60_000);
});
