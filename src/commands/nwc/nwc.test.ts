/**
 * Wallet-connect from an outside app: `@getalby/sdk`'s NWC client (what apps really use) connects with the
 * URI the wallet gives, over the local world's relay, to a wallet running its real engines (on-chain,
 * LDK lightning with a channel to the world's node, and the wallet-connect service).
 */
import { NWAClient, NWCClient } from "@getalby/sdk/nwc";
import { getPublicKey } from "nostr-tools/pure";
import { hex } from "@scure/base";
import { sha256 } from "@noble/hashes/sha2.js";
import { decodeBolt11 } from "../../engine/parse/bolt11";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../../../harness/until";
import type { Harness } from "../../../harness/world";
import { WalletDb } from "../../events/db";
import { appendEvents, readEvents } from "../../events/log";
import { deriveViews, foldEvents } from "../../projections";
import type { WalletHost } from "../host/host";
import { ok } from "../host/host.testing";
import {
  appPool,
  craftedPayment,
  createConnection,
  nwcUri,
  paymentsStartedTo,
  payingWalletWorld,
  type WorldWallet,
} from "./nwc.testing";

let h: Harness;
const db = new WalletDb("nwc-host");
let w: WorldWallet;
let host: WalletHost;
const views = () => w.views();
const clients: NWCClient[] = [];

/** The tab closes and opens again on the same log. */
const reload = async () => {
  await w.reopen();
  host = w.host();
};

const connect = async (index: number): Promise<NWCClient> => {
  const uri = await nwcUri(host, index);
  expect(uri).toMatch(/^nostr\+walletconnect:\/\/[0-9a-f]{64}\?relay=.+&secret=[0-9a-f]{64}$/);
  const client = new NWCClient({ nostrWalletConnectUrl: uri });
  clients.push(client);
  return client;
};

const errorCode = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
    return "none";
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
};

const paymentsTo = (hash: string) => paymentsStartedTo(db, hash);

beforeAll(async () => {
  ({ h, w } = await payingWalletWorld(db));
  host = w.host();
}, 180_000);

afterAll(async () => {
  for (const c of clients) c.close();
  await w?.close();
  await h?.stop();
});

describe("wallet-connect with an outside app (@getalby/sdk) over the world's relay", () => {
  let shop: NWCClient;

  it("refuses a connection form that breaks the rules, and creates one that keeps them", async () => {
    const noName = await host.run({
      _tag: "CreateNwcProfile",
      name: " ",
      budgetSats: 1_000n,
      period: 0,
      requireApproval: false,
    });
    expect(noName).toMatchObject({ ok: false, error: { key: "settings.connections.error_name" } });
    const zero = await host.run({
      _tag: "CreateNwcProfile",
      name: "Shop",
      budgetSats: 0n,
      period: 0,
      requireApproval: false,
    });
    expect(zero).toMatchObject({ ok: false, error: { key: "error_budget_zero" } });
    const index = await createConnection(host, "Shop", 10_000n);
    expect(index).toBe(1000);
    shop = await connect(index);
  }, 60_000);

  it("answers get_info and get_balance", async () => {
    const info = await shop.getInfo();
    expect(info.methods).toEqual(
      expect.arrayContaining(["pay_invoice", "make_invoice", "list_transactions"]),
    );
    expect(info.pubkey).toBe(views().live?.node_id);
    expect(info.network).toBe("regtest");
    const { balance } = await shop.getBalance();
    expect(BigInt(balance)).toBe(host.views().balance.lightning * 1000n);
    expect(balance).toBeGreaterThan(0);
  }, 60_000);

  it("makes an invoice the world's node pays, and tells the app with a payment_received notification", async () => {
    const received: string[] = [];
    const unsub = await shop.subscribeNotifications((n) => {
      if (n.notification_type === "payment_received") received.push(n.notification.payment_hash);
    });
    const tx = await shop.makeInvoice({ amount: 4_000_000, description: "top up" });
    expect(tx.amount).toBe(4_000_000);
    expect((await h.lightning.node.payInvoice(tx.invoice, 100_000n)).status).toBe("succeeded");
    await until("notification", () => received.includes(tx.payment_hash), 30_000);
    const looked = await shop.lookupInvoice({ payment_hash: tx.payment_hash });
    expect(looked.state).toBe("settled");
    unsub();
  }, 60_000);

  it("makes an invoice that commits to the description hash an app gives (a lightning address, a zap)", async () => {
    const metadata = JSON.stringify([["text/plain", "Pay alice"]]);
    const hash = hex.encode(sha256(new TextEncoder().encode(metadata)));
    const tx = await shop.makeInvoice({ amount: 2_000_000, description: metadata, description_hash: hash });
    expect(decodeBolt11(tx.invoice)?.descriptionHash?.toLowerCase()).toBe(hash);
    expect(await errorCode(shop.makeInvoice({ amount: 2_000_000, description_hash: "not hex" }))).toBe(
      "OTHER",
    );
  }, 60_000);

  it("pays within the budget, refuses over it (QUOTA_EXCEEDED), and labels the payment with the connection", async () => {
    const sent: string[] = [];
    const unsub = await shop.subscribeNotifications((n) => {
      if (n.notification_type === "payment_sent") sent.push(n.notification.payment_hash);
    });
    const within = h.lightning.node.createInvoice(3_000_000n, "within");
    const paid = await shop.payInvoice({ invoice: within.bolt11 });
    expect(paid.preimage).toMatch(/^[0-9a-f]{64}$/);
    await until("payment_sent notification", () => sent.includes(within.paymentHash), 30_000);
    unsub();
    await until("payment in activity", () =>
      (views().activity?.items ?? []).some(
        (i) => i.kind === "Lightning" && !i.inbound && i.amount_sats === 3_000n && i.labels.includes("Shop"),
      ),
    );
    // Several invoices in one request: each part is paid once and answered under its own id.
    const a = h.lightning.node.createInvoice(1_000_000n, "part a");
    const b = h.lightning.node.createInvoice(1_000_000n, "part b");
    const multi = await shop.multiPayInvoice({
      invoices: [
        { id: "a", invoice: a.bolt11 },
        { id: "b", invoice: b.bolt11 },
      ],
    });
    expect(multi.invoices.map((x) => x.dTag).sort()).toEqual(["a", "b"]);
    expect(multi.invoices.every((x) => /^[0-9a-f]{64}$/.test(x.preimage))).toBe(true);
    expect([await paymentsTo(a.paymentHash), await paymentsTo(b.paymentHash)]).toEqual([1, 1]);
    const over = h.lightning.node.createInvoice(8_000_000n, "over");
    expect(await errorCode(shop.payInvoice({ invoice: over.bolt11 }))).toBe("QUOTA_EXCEEDED");
    expect(await paymentsTo(over.paymentHash)).toBe(0);
    // Over budget, it waits for the owner in the requests tab.
    const pending = host.views().nwc.pending;
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ index: 1000, name: "Shop", amount_sats: 8_000n, reason: "budget" });
    const profile = host.views().nwc.profiles.find((p) => p.index === 1000)!;
    expect(profile.budget_amount - profile.budget_remaining).toBe(5_000n);
    ok(await host.run({ _tag: "DenyNwcInvoice", id: pending[0]!.id }));
    expect(host.views().nwc.pending).toHaveLength(0);
  }, 90_000);

  it("pays a request delivered three times, and again after a reload, once", async () => {
    const { uri } = ok<{ uri: string }>(await host.run({ _tag: "GetNwcUri", index: 1000 }));
    const invoice = h.lightning.node.createInvoice(1_000_000n, "thrice");
    const pool = appPool();
    const request = craftedPayment(pool, h.nostr.relayUrl, uri, invoice.bolt11);
    const answers = request.answers;
    for (let i = 0; i < 3; i++) await request.send();
    await until("answered", () => answers.some((a) => a.includes("preimage")), 30_000);
    expect(await paymentsTo(invoice.paymentHash)).toBe(1);
    // After a reload the same request comes again (the relay keeps it, or the app sends it again): the answer
    // already sent goes out again, nothing is paid.
    const before = answers.length;
    await reload();
    await connect(1000);
    await host.whenLightning();
    await until("channel usable again", () => (views().live?.usable_channels.length ?? 0) > 0, 60_000);
    await request.send();
    await until("answered again", () => answers.length > before, 30_000);
    expect(await paymentsTo(invoice.paymentHash)).toBe(1);
    expect(new Set(answers.map((a) => JSON.parse(a).result?.preimage)).size).toBe(1);
    request.close();
    pool.destroy();
  }, 60_000);

  it("holds a payment of a connection that requires approval until the owner approves it; a denied one is refused", async () => {
    const { index } = ok<{ index: number }>(
      await host.run({
        _tag: "CreateNwcProfile",
        name: "Careful",
        budgetSats: 0n,
        period: 1,
        requireApproval: true,
      }),
    );
    const careful = await connect(index);
    const invoice = h.lightning.node.createInvoice(2_000_000n, "ask first");
    const paying = careful.payInvoice({ invoice: invoice.bolt11 });
    await until("held", () => (views().nwc?.pending ?? []).some((p) => p.index === index), 30_000);
    expect(await paymentsTo(invoice.paymentHash)).toBe(0);
    const held = host.views().nwc.pending.find((p) => p.index === index)!;
    expect(held).toMatchObject({ amount_sats: 2_000n, reason: "approval", name: "Careful" });
    expect(ok(await host.run({ _tag: "ApproveNwcInvoice", id: held.id }))).toEqual({ paid: true });
    expect((await paying).preimage).toMatch(/^[0-9a-f]{64}$/);
    // Approving again cannot pay twice.
    expect((await host.run({ _tag: "ApproveNwcInvoice", id: held.id })).ok).toBe(false);
    expect(await paymentsTo(invoice.paymentHash)).toBe(1);

    const other = h.lightning.node.createInvoice(1_000_000n, "no");
    const refused = errorCode(careful.payInvoice({ invoice: other.bolt11 }));
    await until("held again", () => (views().nwc?.pending ?? []).some((p) => p.index === index), 30_000);
    expect(ok(await host.run({ _tag: "DenyAllNwc" }))).toEqual({ denied: 1 });
    expect(await refused).toBe("RESTRICTED");
    expect(await paymentsTo(other.paymentHash)).toBe(0);
  }, 90_000);

  it("creates the connection an app asked for (NWA) with the app's fixed budget; the app finds the wallet", async () => {
    const lost = await host.run({
      _tag: "ApproveWalletAuth",
      name: "Kiosk",
      nwa: "",
      budgetSats: 1_000n,
      period: 0,
      requireApproval: false,
    });
    expect(lost).toMatchObject({ ok: false, error: { message: "We lost the NWA string" } });
    const app = new NWAClient({
      relayUrls: [h.nostr.relayUrl],
      requestMethods: ["get_info", "get_balance", "pay_invoice"],
      name: "Kiosk",
      maxAmount: 5_000,
      budgetRenewal: "weekly",
    });
    const nwa = app.connectionUri;
    const connected = new Promise<NWCClient>((resolve) => {
      void app.subscribe({ onSuccess: resolve });
    });
    expect(ok(await host.run({ _tag: "ReadWalletAuth", nwa }))).toEqual({
      name: "Kiosk",
      budgetSats: 5_000n,
      period: 1,
      methods: ["get_info", "get_balance", "pay_invoice"],
    });
    const { index } = ok<{ index: number }>(
      await host.run({
        _tag: "ApproveWalletAuth",
        name: "Kiosk",
        nwa,
        budgetSats: 1n,
        period: 0,
        requireApproval: false,
      }),
    );
    const profile = host.views().nwc.profiles.find((p) => p.index === index);
    expect(profile).toMatchObject({
      budget_amount: 5_000n,
      budget_period: 1,
      budget_fixed: true,
      from_app: true,
    });
    const kiosk = await connected;
    clients.push(kiosk);
    app.close();
    expect((await kiosk.getInfo()).methods).toContain("pay_invoice");
    const over = h.lightning.node.createInvoice(6_000_000n, "too much for the kiosk");
    expect(await errorCode(kiosk.payInvoice({ invoice: over.bolt11 }))).toBe("QUOTA_EXCEEDED");
    ok(await host.run({ _tag: "DenyAllNwc" }));
  }, 90_000);

  it("lists the wallet's transactions", async () => {
    const { transactions } = await shop.listTransactions({ limit: 20 });
    expect(transactions.some((t) => t.type === "incoming" && t.amount === 4_000_000)).toBe(true);
    expect(transactions.some((t) => t.type === "outgoing" && t.amount === 3_000_000)).toBe(true);
  }, 60_000);

  it("answers a payment a crash left unanswered from its outcome after a restart, without paying it again", async () => {
    const invoice = h.lightning.node.createInvoice(1_500_000n, "crash");
    // What a crash between paying and answering leaves: the request accepted, the payment made, no answer.
    const requestId = "ab".repeat(32);
    const appPubkey = getPublicKey(hex.decode("cd".repeat(32)));
    const base = { v: 1, at: Date.now(), device: "test" };
    await appendEvents(db, [
      {
        ...base,
        id: "crash-request",
        type: "nwc.request",
        payload: {
          request_id: requestId,
          index: 1000,
          method: "pay_invoice",
          app: appPubkey,
          encryption: "nip44_v2",
          expires_at: null,
        },
      },
      {
        ...base,
        id: "crash-accepted",
        type: "nwc.payment_accepted",
        payload: {
          request_id: requestId,
          index: 1000,
          payment_hash: invoice.paymentHash,
          bolt11: invoice.bolt11,
          amount_msat: "1500000",
        },
      },
    ]);
    ok(await host.run({ _tag: "PayInvoice", bolt11: invoice.bolt11, amountSats: 1_500n, labels: ["Shop"] }));
    await reload();
    await until(
      "answered from the outcome",
      async () =>
        (await readEvents(db)).some((e) => e.type === "nwc.answered" && e.payload.request_id === requestId),
      60_000,
    );
    const answer = (await readEvents(db)).find(
      (e) => e.type === "nwc.answered" && e.payload.request_id === requestId,
    );
    expect(answer?.type === "nwc.answered" && JSON.parse(answer.payload.response).result.preimage).toMatch(
      /^[0-9a-f]{64}$/,
    );
    expect(await paymentsTo(invoice.paymentHash)).toBe(1);
    // The budgets and requests fold the same from the log.
    const { live: _live, ...folded } = host.views();
    expect(deriveViews(foldEvents(await readEvents(db))).nwc).toEqual(folded.nwc);
  }, 120_000);

  it("answers at its next start a request sent while the wallet was closed, and lets an expired one lapse unpaid", async () => {
    const { uri } = ok<{ uri: string }>(await host.run({ _tag: "GetNwcUri", index: 1000 }));
    const now = Math.floor(Date.now() / 1000);
    const waiting = h.lightning.node.createInvoice(1_200_000n, "while closed");
    const lapsing = h.lightning.node.createInvoice(1_300_000n, "lapses while closed");
    // The tab is closed: the app's requests wait on the relay.
    await w.close();
    const pool = appPool();
    const valid = craftedPayment(pool, h.nostr.relayUrl, uri, waiting.bolt11, {
      createdAt: now,
      expiresAt: now + 600,
    });
    const expiring = craftedPayment(pool, h.nostr.relayUrl, uri, lapsing.bolt11, {
      createdAt: now,
      expiresAt: now + 3,
    });
    await valid.send();
    await expiring.send();
    const answers = valid.answers;
    await new Promise((r) => setTimeout(r, 4_000));
    // The tab opens again: the waiting request is answered, the lapsed one is never paid.
    await reload();
    await host.whenLightning();
    await until("answered after the start", () => answers.length > 0, 90_000);
    expect(answers[0]).toContain("preimage");
    expect(await paymentsTo(waiting.paymentHash)).toBe(1);
    expect(await paymentsTo(lapsing.paymentHash)).toBe(0);
    valid.close();
    expiring.close();
    pool.destroy();
  }, 180_000);
});
