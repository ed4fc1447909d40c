/**
 * A hostile wallet-connect app against a wallet running its real engines over the world's relay: it replays
 * a signed request dated 22 hours back (nostr-tools, crafted as any app could), and it pays 1-sat invoices
 * of its own node, which charges a routing fee, to take more than its budget through fees
 * (`@getalby/sdk`'s client, what apps really use).
 */
import { NWCClient } from "@getalby/sdk/nwc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../../../harness/until";
import type { Harness } from "../../../harness/world";
import { WalletDb } from "../../events/db";
import { readEvents } from "../../events/log";
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
const db = new WalletDb("nwc-hostile");
let w: WorldWallet;
let host: WalletHost;
const clients: NWCClient[] = [];
const pool = appPool();

const paymentsTo = (hash: string) => paymentsStartedTo(db, hash);

const connection = (name: string, budgetSats: bigint): Promise<number> =>
  createConnection(host, name, budgetSats);

/** The app of `uri` signs a pay_invoice dated `createdAt` (unix seconds) and listens for its answers. */
const crafted = (uri: string, bolt11: string, createdAt: number) =>
  craftedPayment(pool, h.nostr.relayUrl, uri, bolt11, { createdAt });

const DAY_BACK_22H = () => Math.floor(Date.now() / 1000) - 22 * 3600;

beforeAll(async () => {
  ({ h, w } = await payingWalletWorld(db));
  host = w.host();
}, 180_000);

afterAll(async () => {
  pool.destroy();
  for (const c of clients) c.close();
  await w?.close();
  await h?.stop();
});

describe("a wallet-connect app that replays old requests", () => {
  let uri = "";

  it("a request dated 22 hours back that waited while the wallet was closed waits for the owner", async () => {
    const index = await connection("Replay", 100_000n);
    uri = await nwcUri(host, index);
    const invoice = h.lightning.node.createInvoice(1_000_000n, "sent while closed, long ago");
    await w.close();
    const old = crafted(uri, invoice.bolt11, DAY_BACK_22H());
    await old.send();
    await w.reopen();
    host = w.host();
    await host.whenLightning();
    await until(
      "held for the owner",
      () => (w.views().nwc?.pending ?? []).some((p) => p.index === index),
      90_000,
    );
    expect(await paymentsTo(invoice.paymentHash)).toBe(0);
    const held = host.views().nwc.pending.find((p) => p.index === index)!;
    expect(held).toMatchObject({ amount_sats: 1_000n, reason: "approval", name: "Replay" });
    // The owner recognises it: approved, it is paid once and the app gets the preimage.
    await until("channel usable again", () => (w.views().live?.usable_channels.length ?? 0) > 0, 60_000);
    expect(ok(await host.run({ _tag: "ApproveNwcInvoice", id: held.id }))).toEqual({ paid: true });
    await until("answered", () => old.answers.some((a) => a.includes("preimage")), 30_000);
    expect(await paymentsTo(invoice.paymentHash)).toBe(1);
    old.close();
  }, 180_000);

  it("a request dated 22 hours back sent while the wallet runs is refused, and nothing is paid", async () => {
    const invoice = h.lightning.node.createInvoice(1_000_000n, "replayed");
    const old = crafted(uri, invoice.bolt11, DAY_BACK_22H());
    await old.send();
    await until("answered", () => old.answers.length > 0, 30_000);
    expect(JSON.parse(old.answers[0] ?? "{}")).toMatchObject({ error: { code: "OTHER" } });
    expect(old.answers[0]).toContain("too old");
    expect(await paymentsTo(invoice.paymentHash)).toBe(0);
    expect(host.views().nwc.pending).toHaveLength(0);
    old.close();
  }, 60_000);
});

describe("a wallet-connect app that pays through fees", () => {
  it("paying 1-sat invoices through its own fee-charging node, it cannot spend past its budget, fees counted", async () => {
    // The app's own node, behind a channel of the world's node that charges a routing fee.
    const carol = await h.startPayee();

    const budget = 30n;
    const index = await connection("Tiny", budget);
    const app = new NWCClient({ nostrWalletConnectUrl: await nwcUri(host, index) });
    clients.push(app);
    const paid: { hash: string; feeMsat: bigint }[] = [];
    let refusal = "";
    // On a budget counting amounts only, 30 one-sat payments would go out, each paying its fee on top.
    for (let i = 0; i < 40 && refusal === ""; i++) {
      const invoice = carol.node.createInvoice(1_000n, `tip ${i}`);
      try {
        const r = await app.payInvoice({ invoice: invoice.bolt11 });
        paid.push({ hash: invoice.paymentHash, feeMsat: BigInt(r.fees_paid ?? 0) });
      } catch (e) {
        refusal = (e as { code?: string }).code ?? String(e);
      }
    }
    expect(refusal).toBe("QUOTA_EXCEEDED");
    expect(paid.some((p) => p.feeMsat > 0n)).toBe(true);
    // What left the wallet for the app, by the wallet's own log: amounts and the fees it paid.
    const hashes = new Set(paid.map((p) => p.hash));
    const sent = (await readEvents(db)).filter(
      (e) => e.type === "ln.payment_sent" && hashes.has(e.payload.payment_hash),
    );
    expect(sent).toHaveLength(paid.length);
    const spentMsat = sent.reduce(
      (sum, e) => sum + 1_000n + (e.type === "ln.payment_sent" ? BigInt(e.payload.fee_msat) : 0n),
      0n,
    );
    expect(spentMsat).toBeLessThanOrEqual(budget * 1000n);
    // get_budget and the connection's card count the fees.
    const usedSats = paid.reduce((sum, p) => sum + (1_000n + p.feeMsat + 999n) / 1000n, 0n);
    const answer = await app.getBudget();
    expect(answer).toMatchObject({
      used_budget: Number(usedSats * 1000n),
      total_budget: Number(budget * 1000n),
    });
    const card = host.views().nwc.profiles.find((p) => p.index === index)!;
    expect(card.budget_amount - card.budget_remaining).toBe(usedSats);
    ok(await host.run({ _tag: "DenyAllNwc" }));
  }, 300_000);
});
