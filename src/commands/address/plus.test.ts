/**
 * Plus against the local world: the wallet (real engines, a channel to the world's node, its wallet-connect
 * service) joins the world's membership service, which then charges renewals through the subscription
 * connection (index 0) with @getalby/sdk's NWC client over the world's relay, within the connection's
 * budget; a member whose renewal cannot be charged lapses after the 3-day grace. Its lightning address is
 * paid into its own channel while it runs, and into its mint while it is stopped (a token waiting on the
 * relay, redeemed at the next start, once).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { hex, utf8 } from "@scure/base";
import { getToken } from "nostr-tools/nip98";
import { makeZapRequest } from "nostr-tools/nip57";
import { SimplePool } from "nostr-tools/pool";
import { finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson } from "../../../harness/http";
import { until } from "../../../harness/until";
import { GRACE_S, PERIOD_S } from "../../../harness/plus";
import { type Harness, startHarness } from "../../../harness/world";
import { initCrdtNode } from "../../crdt/node";
import { nwcKeys } from "../../engine/nwc/keys";
import { decodeBolt11 } from "../../engine/parse/bolt11";
import { fetchParams, metadataText } from "../../engine/lnurl/client";
import { decodeLightningAddress } from "../../engine/parse/lightning-address";
import examples from "../../engine/lnurl/vectors/lud-examples.json";
import { canJoin, isPlusActive } from "../../projections/plus";
import { WalletDb } from "../../events/db";
import { addIds, toChunks } from "../../events/chunks";
import { clearLog, logTables, readEvents } from "../../events/log";
import type { WalletHost } from "../host/host";
import { ok } from "../host/host.testing";
import { openChannel, openWorldWallet, type WorldWallet } from "../nwc/nwc.testing";

(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

let h: Harness;
const db = new WalletDb("plus-host");
let w: WorldWallet;
let host: WalletHost;

beforeAll(async () => {
  await initCrdtNode();
  h = await startHarness({ port: 0 });
  w = await openWorldWallet(h, db, { ecashAndNostr: true });
  host = w.host();
  ok(await host.run({ _tag: "CreateWallet" }));
}, 180_000);

afterAll(async () => {
  await w?.close();
  await h?.stop();
});

const plusHost = () => h.esploraUrl;

describe("Plus membership against the world", () => {
  it("follows the spec's rules: join needs a balance above the price; active while timestamp + 3 days is later than now", () => {
    expect(canJoin(5_001n, 5_000n)).toBe(true);
    expect(canJoin(5_000n, 5_000n)).toBe(false);
    expect(isPlusActive(null, 1_000)).toBe(false);
    expect(isPlusActive(1_000, 1_000 + 3 * 86_400 - 1)).toBe(true);
    expect(isPlusActive(1_000, 1_000 + 3 * 86_400)).toBe(false);
  });

  it("shows the plans, and refuses to join while the balance is not above the price", async () => {
    const plus = ok<{
      plans: { id: number; amountSats: bigint }[];
      active: boolean;
      timestamp: number | null;
    }>(await host.run({ _tag: "GetPlus", host: plusHost() }));
    expect(plus.plans).toEqual([{ id: 1, amountSats: 5_000n }]);
    expect(plus.active).toBe(false);
    expect(plus.timestamp).toBeNull();
    expect(await host.run({ _tag: "PreparePlus", host: plusHost(), planId: 1 })).toMatchObject({
      ok: false,
      error: { _tag: "InsufficientFunds", key: "settings.plus.error_balance" },
    });
  }, 60_000);

  it("joins: the subscription connection gets the price per month as a fixed budget, the invoice is paid, the member is active", async () => {
    await openChannel(h, w);
    const prepared = ok<{ index: number; amountSats: bigint }>(
      await host.run({ _tag: "PreparePlus", host: plusHost(), planId: 1 }),
    );
    expect(prepared).toEqual({ index: 0, amountSats: 5_000n });
    const profile = host.views().nwc.profiles.find((p) => p.index === 0);
    expect(profile).toMatchObject({
      tag: "Subscription",
      require_approval: false,
      budget_fixed: true,
      budget_amount: 5_000n,
      budget_period: 2,
    });
    await until(
      "the wallet-connect service",
      async () => (await host.run({ _tag: "GetNwcUri", index: 0 })).ok,
    );
    const { uri } = ok<{ uri: string }>(await host.run({ _tag: "GetNwcUri", index: 0 }));
    const { bolt11, amountSats } = ok<{ bolt11: string; amountSats: bigint }>(
      await host.run({ _tag: "SubscribePlus", host: plusHost(), planId: 1, nwc: uri }),
    );
    expect(amountSats).toBe(5_000n);
    expect(ok<{ status: string }>(await host.run({ _tag: "PayInvoice", bolt11, amountSats })).status).toBe(
      "succeeded",
    );
    const before = Math.floor(Date.now() / 1000);
    const plus = ok<{ active: boolean; timestamp: number; planId: number }>(
      await host.run({ _tag: "GetPlus", host: plusHost() }),
    );
    expect(plus.active).toBe(true);
    expect(plus.planId).toBe(1);
    expect(plus.timestamp).toBeGreaterThanOrEqual(before + PERIOD_S - 60);
  }, 180_000);

  it("reserves a lightning address: names checked, a taken name refused, then name@host is paid into the wallet's own channel with the payer's note, and a zap gets its receipt on the relay", async () => {
    const hermes = h.esploraUrl;
    expect(await host.run({ _tag: "ReserveLnName", host: "", name: "alice" })).toMatchObject({
      ok: false,
      error: { message: "Hermes not configured" },
    });
    for (const [name, key] of [
      ["", "settings.lightningaddress.error_empty"],
      ["Alice", "settings.lightningaddress.error_characters"],
      ["al ice", "settings.lightningaddress.error_characters"],
    ] as const)
      expect(await host.run({ _tag: "ReserveLnName", host: hermes, name })).toMatchObject({
        ok: false,
        error: { key },
      });
    expect(ok(await host.run({ _tag: "CheckLnName", host: hermes, name: "satoshi.plus-1_x" }))).toEqual({
      available: true,
    });
    const { address } = ok<{ address: string }>(
      await host.run({ _tag: "ReserveLnName", host: hermes, name: "satoshi.plus-1_x" }),
    );
    expect(address).toBe(`satoshi.plus-1_x@${new URL(h.esploraUrl).host}`);
    expect(ok(await host.run({ _tag: "GetLightningAddress", host: hermes }))).toEqual({
      name: "satoshi.plus-1_x",
      address,
      mint: null,
    });
    // Someone else asking for the name (signed with another key) is told it is taken.
    const other = generateSecretKey();
    const url = `${h.esploraUrl}/hermes/names`;
    const taken = await fetch(url, {
      method: "POST",
      headers: { authorization: await getToken(url, "post", (e) => finalizeEvent(e, other), true) },
      body: JSON.stringify({ name: "satoshi.plus-1_x" }),
    });
    expect(taken.status).toBe(409);
    expect(await taken.text()).toBe("Name already taken");

    // A payer follows LUD-16 then LUD-06: the invoice is the wallet's own, for the amount asked.
    const params = (await (await fetch(`${h.esploraUrl}/.well-known/lnurlp/satoshi.plus-1_x`)).json()) as {
      tag: string;
      callback: string;
      metadata: string;
      allowsNostr: boolean;
      nostrPubkey: string;
      commentAllowed: number;
    };
    expect(params).toMatchObject({ tag: "payRequest", allowsNostr: true, commentAllowed: 144 });
    expect(JSON.parse(params.metadata)).toContainEqual(["text/identifier", address]);
    expect(params.nostrPubkey).toMatch(/^[0-9a-f]{64}$/);
    // The metadata has the shape of LUD-06's published example, and the wallet's own LNURL client reads
    // the address as a pay offer.
    for (const v of examples.metadata) expect(metadataText(v.raw)).toBe(v.text);
    expect(metadataText(params.metadata)).toBe(`Payment to ${address}`);
    const offer = await fetchParams(
      (input, init) => fetch(input, init),
      decodeLightningAddress(address)?.url ?? "",
    );
    expect(offer).toMatchObject({
      tag: "payRequest",
      description: `Payment to ${address}`,
      minSendable: 1_000n,
    });
    const pay = (await (
      await fetch(`${params.callback}?amount=21000&comment=${encodeURIComponent("thanks for the coffee")}`)
    ).json()) as { pr: string };
    const invoice = decodeBolt11(pay.pr)!;
    expect(invoice.amountMsat).toBe(21_000n);
    expect(invoice.payeePubkey).toBe(host.views().live.node_id);
    expect((await h.lightning.node.payInvoice(pay.pr, 100_000n)).status).toBe("succeeded");
    await until(
      "the payment in activity",
      async () => {
        const item = host
          .views()
          .activity.items.find((i) => i.kind === "Lightning" && i.inbound && i.amount_sats === 21n);
        if (!item) return false;
        const d = ok<{ description: string | null; status: string }>(
          await host.run({ _tag: "GetLightningPayment", id: item.id }),
        );
        return d.status === "succeeded" && d.description === "thanks for the coffee";
      },
      30_000,
    );
    // A zap (NIP-57): the invoice commits to the zap request; once paid, the service's receipt is on the relay.
    const zapper = generateSecretKey();
    const zapRequest = finalizeEvent(
      makeZapRequest({
        pubkey: getPublicKey(zapper),
        amount: 1_000_000,
        relays: [h.nostr.relayUrl],
        comment: "zap!",
      }),
      zapper,
    );
    const zapped = (await (
      await fetch(`${params.callback}?amount=1000000&nostr=${encodeURIComponent(JSON.stringify(zapRequest))}`)
    ).json()) as { pr: string };
    expect(zapped).toEqual({ pr: expect.any(String), routes: [] });
    expect(decodeBolt11(zapped.pr)?.payeePubkey).toBe(host.views().live.node_id);
    expect((await h.lightning.node.payInvoice(zapped.pr, 100_000n)).status).toBe("succeeded");
    const pool = new SimplePool();
    try {
      await until(
        "the zap receipt on the relay",
        async () => {
          const found = await pool.querySync([h.nostr.relayUrl], {
            kinds: [9735],
            authors: [params.nostrPubkey],
          });
          return found.some(
            (e) =>
              e.tags.some((t) => t[0] === "bolt11" && t[1] === zapped.pr) &&
              e.tags.some((t) => t[0] === "description" && t[1] === JSON.stringify(zapRequest)),
          );
        },
        60_000,
      );
    } finally {
      pool.destroy();
    }
    const forged = { ...zapRequest, content: "changed" };
    const refused = (await (
      await fetch(`${params.callback}?amount=1000000&nostr=${encodeURIComponent(JSON.stringify(forged))}`)
    ).json()) as { status: string };
    expect(refused.status).toBe("ERROR");

    const bad = (await (await fetch(`${params.callback}?amount=abc`)).json()) as { status: string };
    expect(bad.status).toBe("ERROR");
  }, 120_000);

  it("a name another member holds is refused with the catalogue's message, and each keeps its own", async () => {
    const hermes = h.esploraUrl;
    // Another member of the world's Plus: it subscribes with its own key and its invoice is paid.
    const other = generateSecretKey();
    const signed = async (path: string, method: "get" | "post", body?: unknown) => {
      const url = `${h.esploraUrl}${path}`;
      return fetch(url, {
        method: method.toUpperCase(),
        headers: {
          authorization: await getToken(url, method, (e) => finalizeEvent(e, other), true),
          "content-type": "application/json",
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    };
    const nwc = `nostr+walletconnect://${"ab".repeat(32)}?relay=${encodeURIComponent(h.nostr.relayUrl)}&secret=${hex.encode(other)}`;
    const { invoice } = (await (await signed("/plus/subscribe", "post", { plan_id: 1, nwc })).json()) as {
      invoice: string;
    };
    expect((await postJson(h.esploraUrl, "/ln/pay", { bolt11: invoice })).status).toBe("succeeded");
    await until("the other member to be active", () => h.plus.isMember(getPublicKey(other)));
    expect((await signed("/hermes/names", "post", { name: "othername" })).status).toBe(200);

    // The wallet asks for it: refused in the owner's language, and its own address is unchanged.
    expect(ok(await host.run({ _tag: "CheckLnName", host: hermes, name: "othername" }))).toEqual({
      available: false,
    });
    expect(await host.run({ _tag: "ReserveLnName", host: hermes, name: "othername" })).toMatchObject({
      ok: false,
      error: { _tag: "InvalidInput", key: "settings.lightningaddress.error_taken" },
    });
    expect(ok(await host.run({ _tag: "GetLightningAddress", host: hermes }))).toMatchObject({
      name: "satoshi.plus-1_x",
    });
    // The other member, a member now, is refused the wallet's name, in any spelling, and keeps its own.
    for (const name of ["satoshi.plus-1_x", "Satoshi.plus-1_x", "satoshi.plus-1_x ", "satoshi%2eplus-1_x"])
      expect((await signed("/hermes/names", "post", { name })).status, name).toBeGreaterThanOrEqual(400);
    expect(await (await signed("/hermes/names/mine", "get")).json()).toMatchObject({ name: "othername" });
    expect(ok(await host.run({ _tag: "GetLightningAddress", host: hermes }))).toMatchObject({
      name: "satoshi.plus-1_x",
    });
  }, 120_000);

  it("while the wallet is stopped, a payment to the address goes to the member's mint and waits on the relay as a token; the next start redeems it once, with the payer's note", async () => {
    const hermes = h.esploraUrl;
    const mint = h.cashu.mintUrl;
    expect(
      ok<{ federationId: string }>(await host.run({ _tag: "JoinFederation", code: mint })).federationId,
    ).toBe(mint);
    // Only a mint the owner joined can receive for the address.
    expect(
      await host.run({
        _tag: "ReserveLnName",
        host: hermes,
        name: "satoshi.plus-1_x",
        mint: h.cashu.mint2Url,
      }),
    ).toMatchObject({ ok: false, error: { key: "settings.lightningaddress.error_mint" } });
    ok(await host.run({ _tag: "ReserveLnName", host: hermes, name: "satoshi.plus-1_x", mint }));
    expect(ok(await host.run({ _tag: "GetLightningAddress", host: hermes }))).toMatchObject({
      name: "satoshi.plus-1_x",
      mint,
    });

    // The tab closes: the wallet-connect service no longer answers.
    await w.close();
    const params = (await (await fetch(`${h.esploraUrl}/.well-known/lnurlp/satoshi.plus-1_x`)).json()) as {
      callback: string;
      metadata: string;
    };
    const pay = (await (
      await fetch(`${params.callback}?amount=34000&comment=${encodeURIComponent("paid while closed")}`)
    ).json()) as { pr: string };
    const invoice = decodeBolt11(pay.pr)!;
    expect(invoice.amountMsat).toBe(34_000n);
    // The mint's invoice (of the world's node), not the wallet's; it commits to the LUD-06 metadata all the same.
    expect(invoice.payeePubkey).toBe(h.lightning.pubkey);
    expect(invoice.descriptionHash).toBe(hex.encode(sha256(utf8.decode(params.metadata))));
    expect((await (await h.payer()).node.payInvoice(pay.pr, 100_000n)).status).toBe("succeeded");
    await until(
      "the token sent to the member",
      () => h.hermes.tokens().some((t) => t.bolt11 === pay.pr),
      60_000,
    );
    const sent = h.hermes.tokens().find((t) => t.bolt11 === pay.pr)!;
    expect(sent.amountSats).toBe(34n);
    const reserved = (await readEvents(db)).filter((e) => e.type === "lnaddress.reserved").at(-1);
    expect(reserved?.type === "lnaddress.reserved" && reserved.payload.mint).toBe(mint);

    // The next start reads the message and redeems the token: the payment shows with the payer's note.
    await w.reopen();
    host = w.host();
    const received = () =>
      w.views().activity?.items.filter((i) => i.kind === "Ecash" && i.inbound && i.amount_sats === 34n) ?? [];
    await until("the token redeemed", () => received().length === 1, 90_000);
    expect(received()[0]!.labels[0]).toBe("paid while closed");
    expect(w.views().balance?.federation).toBe(34n);
    // Asking again redeems nothing more: each message is redeemed once.
    expect(ok(await host.run({ _tag: "RedeemAddressTokens" }))).toEqual({ redeemed: 0, amountSats: 0n });
    // The service's token messages are redeemed, never kept as chat: no spendable token lies in the log.
    ok(await host.run({ _tag: "SyncMessages" }));
    expect(
      (await readEvents(db)).some((e) => e.type === "chat.message" && /cashu[AB]/.test(e.payload.text)),
    ).toBe(false);

    // A crash that kept the redemption's record out of the log: the next start finds the token spent, marks
    // it so, and the ecash counts once.
    await w.close();
    const logged = await readEvents(db);
    const lost = logged.findIndex((e) => e.type === "lnaddress.redeemed");
    const kept = logged.filter((_, i) => i !== lost);
    await clearLog(db);
    // The folded log kept for a quick start is written only after the events it covers, so a crash that
    // kept an event out of the log never left it one that counts it.
    await db.snapshots.clear();
    await db.transaction("rw", logTables(db), async () => {
      await db.log.bulkPut(toChunks(kept));
      await db.logIds.bulkPut(
        addIds(
          new Map(),
          kept.map((e) => e.id),
        ),
      );
    });
    await w.reopen();
    host = w.host();
    await until(
      "the message marked again",
      async () => (await readEvents(db)).some((e) => e.type === "lnaddress.redeemed"),
      90_000,
    );
    const again = (await readEvents(db)).filter((e) => e.type === "lnaddress.redeemed");
    expect(again.map((e) => e.type === "lnaddress.redeemed" && e.payload.op)).toEqual([null]);
    expect(w.views().balance?.federation).toBe(34n);
    expect(received().length).toBe(1);
  }, 240_000);

  it("charges a renewal through the connection within its budget, refuses a second in the same month, and lapses after the grace", async () => {
    const mnemonic = ok<{ words: string[] }>(await host.run({ _tag: "ShowSeed" })).words.join(" ");
    const member = nwcKeys(mnemonic, 0).clientPubkey;
    const first = h.plus.member(member)!.timestamp!;
    const paymentsBefore = (await readEvents(db)).filter((e) => e.type === "ln.payment_started").length;

    h.plus.advance(PERIOD_S + 1);
    expect(await h.plus.renewDue()).toBe(1);
    expect(h.plus.member(member)).toMatchObject({
      renewals: 1,
      timestamp: first + PERIOD_S,
      lastError: null,
    });
    const payments = (await readEvents(db)).filter((e) => e.type === "ln.payment_started");
    expect(payments.length).toBe(paymentsBefore + 1);

    // The next period is due on the service's clock, but the connection's monthly budget is spent.
    h.plus.advance(PERIOD_S);
    expect(await h.plus.renewDue()).toBe(0);
    expect(h.plus.member(member)?.lastError).toBe("QUOTA_EXCEEDED");
    expect(h.plus.member(member)?.renewals).toBe(1);
    expect(h.plus.isMember(member)).toBe(true);
    expect((await readEvents(db)).filter((e) => e.type === "ln.payment_started").length).toBe(
      paymentsBefore + 1,
    );

    h.plus.advance(GRACE_S);
    expect(h.plus.isMember(member)).toBe(false);
    expect(await h.plus.renewDue()).toBe(0);
  }, 180_000);
});
