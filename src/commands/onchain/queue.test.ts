/**
 * An on-chain payment waits on the Esplora server with the command queue released: against the world's
 * hostile Esplora (reads that never answer, then a broadcast that never answers), the owner's other
 * commands go on meanwhile, a second payment cannot take the coins the first one spends, and the first
 * payment completes and is recorded once the server answers again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../../../harness/until";
import { type Harness, startHarness } from "../../../harness/world";
import { onchainEngine } from "../../engine/onchain/engine";
import { WalletDb } from "../../events/db";
import { readEvents } from "../../events/log";
import { type CommandAnswer, WalletHost } from "../host/host";
import { chainOnlyConfig, fundFromWorld, nodePlatform, ok, testCipher } from "../host/host.testing";
import { urlOf } from "../../engine/http/bounded";

const SCOPE = "spend-queue";
let h: Harness;
let host: WalletHost;
const db = new WalletDb("onchain-queue");
/** Every request the wallet made to the Esplora server, as "METHOD path" (the real fetch does the work). */
const requests: string[] = [];

beforeAll(async () => {
  h = await startHarness({ port: 0 });
  const base = h.hostileEsploraUrl(SCOPE);
  const config = chainOnlyConfig(base);
  const observed: typeof fetch = (input, init) => {
    const url = urlOf(input);
    if (url.startsWith(base)) requests.push(`${init?.method ?? "GET"} ${url.slice(base.length)}`);
    return fetch(input, init);
  };
  host = await WalletHost.open({
    db,
    config,
    cipher: testCipher,
    onViews: () => undefined,
    engines: { list: [onchainEngine], platform: { ...nodePlatform, fetch: observed } },
  });
  ok(await host.run({ _tag: "CreateWallet" }));
}, 180_000);

afterAll(async () => {
  h?.hostility.set("esplora", SCOPE, null);
  await host?.stop();
  await h?.stop();
});

/** The answer of `p` once it came, or "waiting". */
const track = (p: Promise<CommandAnswer>) => {
  const t: { answer: CommandAnswer | "waiting" } = { answer: "waiting" };
  void p.then((a) => {
    t.answer = a;
  });
  return t;
};

describe("an on-chain payment against a server that does not answer", () => {
  it("lets other commands run while it waits, holds its coins, and is recorded once the server answers", async () => {
    await fundFromWorld(h, host, 100_000n);
    expect(host.views().balance.confirmed).toBe(100_000n);

    // The server accepts every request and answers none.
    h.hostility.set("esplora", SCOPE, "hang");
    const asked = requests.length;
    const spend = track(
      host.run({ _tag: "SendToAddress", address: h.faucetAddress, amountSats: 30_000n, labels: ["rent"] }),
    );
    await until("the payment to ask the server", () => requests.length > asked);
    // A contact edit goes through while the payment waits on the server.
    const contact = ok<{ id: string }>(
      await host.run({ _tag: "CreateContact", name: "Alice", npub: "", ln_address: "alice@example.com" }),
    );
    expect(spend.answer).toBe("waiting");

    // The reads answer again (the hung ones are asked again after their deadline); the broadcast hangs.
    h.hostility.set("esplora", SCOPE, "broadcast-hang");
    await until("the payment to broadcast", () => requests.some((r) => r.startsWith("POST /tx")), 150_000);
    ok(
      await host.run({
        _tag: "EditContact",
        id: contact.id,
        name: "Alice B",
        npub: "",
        ln_address: "alice@example.com",
      }),
    );
    // The same payment again while the first is on its way: the owner is asked first.
    expect(
      await host.run({ _tag: "SendToAddress", address: h.faucetAddress, amountSats: 30_000n, labels: [] }),
    ).toMatchObject({ ok: false, error: { _tag: "RepeatNeedsConfirmation" } });
    // The only coin is the payment's on its way: another payment cannot spend it again.
    const second = await host.run({
      _tag: "SendToAddress",
      address: h.faucetAddress,
      amountSats: 20_000n,
      labels: [],
    });
    expect(second).toMatchObject({ ok: false, error: { _tag: "InsufficientFunds" } });
    expect(spend.answer).toBe("waiting");

    // The server answers again: the broadcast goes through (asked again after its deadline) and is recorded.
    h.hostility.set("esplora", SCOPE, null);
    await until("the payment to answer", () => spend.answer !== "waiting", 150_000);
    const sent = ok<{ txid: string; feeSats: bigint }>(spend.answer as CommandAnswer);
    const onChain = await fetch(`${h.esploraUrl}/tx/${sent.txid}`);
    expect(onChain.status).toBe(200);
    const seen = (await readEvents(db)).filter(
      (e) => e.type === "onchain.tx_seen" && e.payload.txid === sent.txid,
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]!.payload).toMatchObject({ labels: ["rent"], outgoing: true });
    expect(host.views().balance.confirmed).toBe(100_000n - 30_000n - sent.feeSats);
    expect(host.views().contacts.map((c) => c.name)).toContain("Alice B");
  }, 300_000);
});
