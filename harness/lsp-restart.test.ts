/**
 * The world's LSP node stops and starts again as a real LSP restarts (`POST /ln/stop`, `POST /ln/start`):
 * the wallet's connection drops and every new one is refused while it is down; it comes back the same node
 * with the same channel, and a wallet node reconnects to it by itself and pays over that channel.
 */
import { connect } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import type { LightningNode, NodeEvent } from "../src/engine/lightning/node";
import { CHANNEL_WAIT_MS } from "../src/engine/lightning/policy";
import { postJson } from "./http";
import { stopAfterAll } from "./stop-after-all";
import { until } from "./until";
import { openUsableChannel, startWorldWithNode } from "./wallet-node";
import type { Harness } from "./world";

let h: Harness;
let wallet: LightningNode;
const events: NodeEvent[] = [];

const lsp = () => h.lightning.pubkey;
const usable = () => wallet.channels().some((c) => c.peer === lsp() && c.isUsable);
const walletState = () => wallet.peerStatus().find((p) => p.pubkey === lsp())?.state ?? null;

/** Whether a TCP connection to the LSP's lightning port is accepted now. */
const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

beforeAll(async () => {
  ({ world: h, node: wallet } = await startWorldWithNode(events, () => ({ paymentTimeoutMs: 30_000 })));
  await openUsableChannel(h, wallet, events, { opener: "wallet", sats: 200_000n });
}, 240_000);
stopAfterAll(() => [wallet, h]);

describe("the world's LSP node stopped and started again", () => {
  it("drops the wallet and refuses it while down; the wallet reconnects by itself once it is back, and pays", async () => {
    const channelId = h.lightning.node.channels().find((c) => c.peer === wallet.nodeId)!.channelId;
    const { bolt11 } = h.lightning.node.createInvoice(10_000_000n, "after the restart");
    const { tcpPort, wsPort } = h.lightning;

    expect(await postJson(h.esploraUrl, "/ln/stop", {})).toEqual({ online: false });
    expect(h.lightning.isOnline()).toBe(false);
    await until("the wallet sees its peer gone", () => walletState() !== "connected" && !usable(), 10_000);
    expect(await accepts(tcpPort)).toBe(false);
    expect(await accepts(wsPort)).toBe(false);
    // The node's API answers as a stopped node's does.
    expect((await fetch(`${h.esploraUrl}/ln/info`)).status).toBe(503);
    // A few seconds of the wallet's redials (its back-off at work): every one refused.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(walletState()).toBe("connecting");
    expect(wallet.refusal(10_000_000n)).toMatchObject({ reason: "peer_offline", peer: lsp() });

    const restarted = Date.now();
    expect(await postJson(h.esploraUrl, "/ln/start", {})).toEqual({ online: true });
    const listening = Date.now() - restarted;
    // Nothing asked of the wallet: its supervisor finds the LSP back.
    await until("the wallet reconnected by itself", () => walletState() === "connected" && usable(), 30_000);
    const backMs = Date.now() - restarted;
    // The same node with the same channel, on the same ports.
    expect(h.lightning.tcpPort).toBe(tcpPort);
    expect(h.lightning.node.nodeId).toBe(lsp());
    expect(h.lightning.node.channels().map((c) => c.channelId)).toContain(channelId);
    expect((await wallet.payInvoice(bolt11, 100_000n)).status).toBe("succeeded");
    console.log(
      `the LSP listened again ${listening} ms after /ln/start; the wallet's channel was usable ${backMs} ms after`,
    );
  }, 120_000);

  it("pays a payment that waits for its channel once the LSP is back (redialled each second meanwhile)", async () => {
    await until("usable", usable, 30_000);
    const { bolt11 } = h.lightning.node.createInvoice(5_000_000n, "waiting for the restart");
    const back = new Promise<number>((resolve) =>
      setTimeout(() => void h.lightning.online().then(() => resolve(Date.now())), 8_000),
    );
    await h.lightning.offline();
    await until("the wallet sees its peer gone", () => !usable(), 10_000);
    expect(wallet.refusal(5_000_000n)).toMatchObject({ reason: "peer_offline" });
    await wallet.whenConnected(5_000_000n, CHANNEL_WAIT_MS);
    const waited = Date.now() - (await back);
    expect(wallet.refusal(5_000_000n)).toBeNull();
    expect((await wallet.payInvoice(bolt11, 100_000n)).status).toBe("succeeded");
    console.log(`a waiting payment's channel was usable ${waited} ms after the LSP listened again`);
  }, 90_000);

  it("starts again by itself after the seconds given to /ln/stop", async () => {
    expect(await postJson(h.esploraUrl, "/ln/stop", { seconds: 2 })).toEqual({ online: false, starts_in: 2 });
    await until("the wallet sees its peer gone", () => !usable(), 10_000);
    await until("the LSP back", () => h.lightning.isOnline(), 30_000);
    await until("the wallet reconnected by itself", usable, 30_000);
  }, 90_000);
});
