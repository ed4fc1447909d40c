/**
 * A channel partner that publishes a revoked state, with the wallet's node running: the world's LSP cheats
 * on demand (harness/cheat.ts), the node sees the old commitment within a block or two, LDK's justice
 * transaction takes the partner's side, and everything the channel held comes back on-chain less fees.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { until } from "../../../harness/until";
import { stopAfterAll } from "../../../harness/stop-after-all";
import { lspPays, mineAndSync, openUsableChannel, startWorldWithNode } from "../../../harness/wallet-node";
import type { Harness } from "../../../harness/world";
import { makeEsplora } from "../onchain/esplora";
import type { LightningNode, NodeEvent } from "./node";

let h: Harness;
let wallet: LightningNode;
const events: NodeEvent[] = [];

beforeAll(async () => {
  ({ world: h, node: wallet } = await startWorldWithNode(events, () => ({ paymentTimeoutMs: 30_000 })));
}, 180_000);
stopAfterAll(() => [wallet, h]);

describe("a partner publishing a revoked state while the wallet runs", () => {
  it("is punished: the justice transaction takes the whole channel", async () => {
    // The LSP opens and funds the channel: in its first state the LSP holds all of it.
    const pending = await openUsableChannel(h, wallet, events, { opener: "lsp", sats: 200_000n });
    // Two payments to the wallet: the states before them are revoked.
    await lspPays(h, wallet, events, [30_000n, 20_000n]);
    await until("settled at the LSP", () =>
      h.lightning.node.channels().some((c) => c.outboundSats < 160_000n),
    );

    const cheat = await h.lightning.cheat(pending.outpoint);
    // The thief publishes the state where it held everything.
    expect(BigInt(cheat.stolen_sats)).toBeGreaterThan(190_000n);
    await h.waitForTx(cheat.txid);
    await mineAndSync(h, wallet, 1);
    await until(
      "revoked state seen",
      async () => {
        await wallet.sync();
        return events.some((e) => e.type === "revoked_state_seen");
      },
      60_000,
      250,
    );
    const seen = events.find((e) => e.type === "revoked_state_seen");
    if (seen?.type !== "revoked_state_seen") throw new Error("unseen");
    expect(seen.claimableSats).toBeGreaterThan(190_000n);
    await until("channel closed", () => events.some((e) => e.type === "channel_closed"), 60_000);

    // The justice transaction confirms and, buried, is swept to the wallet's on-chain script.
    const esplora = makeEsplora(h.esploraUrl, (i, init) => fetch(i, init));
    const [fundingTxid, vout] = pending.outpoint.split(":");
    for (let i = 0; i < 20 && !events.some((e) => e.type === "outputs_swept"); i++) {
      await mineAndSync(h, wallet, 2);
      await new Promise((r) => setTimeout(r, 250));
    }
    const swept = events.filter((e) => e.type === "outputs_swept");
    const total = swept.reduce((s, e) => (e.type === "outputs_swept" ? s + e.sats : s), 0n);
    // The whole 200,000-sat channel less the commitment's, the justice's and the sweep's fees.
    expect(total).toBeGreaterThan(195_000n);
    expect(total).toBeLessThanOrEqual(200_000n);
    // The cheat's commitment confirmed, spending the funding output.
    expect((await esplora.outspend(fundingTxid!, Number(vout)))?.txid).toBe(cheat.txid);
  }, 600_000);
});
