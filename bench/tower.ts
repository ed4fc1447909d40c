/**
 * The watchtower (issue 41), in Node against the local world: the appointment bytes a payment sends, the
 * wallet's extra time per payment for building and signing them, and the tower's time to look at a block
 * when it holds 10,000 appointments.
 */
import { hex } from "@scure/base";
import { until } from "../harness/until";
import { startWalletNode } from "../harness/wallet-node";
import type { Harness } from "../harness/world";
import type { LightningNode, NodeEvent } from "../src/engine/lightning/node";
import { parsePeerAddress } from "../src/engine/lightning/socket";
import { MemoryBlobStore } from "../src/engine/lightning/store";
import { appointmentFor, towerKey } from "../src/engine/tower/appointment";
import { TowerClient } from "../src/engine/tower/client";
import { startTower } from "../services/tower/tower";

const PAYMENTS = 20;
const STORED = 10_000;

/** A wallet node with a channel the world's node opened to it, and the mean ms of `PAYMENTS` payments to it. */
const payments = async (
  world: Harness,
  tower: TowerClient | null,
): Promise<{ ms: number; node: LightningNode }> => {
  const events: NodeEvent[] = [];
  const node = await startWalletNode(world, {
    seed: crypto.getRandomValues(new Uint8Array(32)),
    store: new MemoryBlobStore(),
    onEvent: (e) => events.push(e),
    ...(tower ? { onJustice: (txid: Uint8Array, tx: Uint8Array) => tower.add(txid, tx) } : {}),
  });
  await node.connectPeer(parsePeerAddress(world.lightning.address)!);
  world.lightning.node.openChannel(node.nodeId, 500_000n, 0n);
  await until("pending", () => events.some((e) => e.type === "channel_pending"), 60_000);
  for (const e of events) if (e.type === "channel_pending") await world.waitForTx(e.fundingTxid);
  await world.mine(6);
  await node.sync();
  await world.lightning.node.sync();
  await until("usable", () => node.channels().some((c) => c.isUsable), 60_000);
  await until("usable at the LSP", () =>
    world.lightning.node.channels().some((c) => c.peer === node.nodeId && c.isUsable),
  );
  const started = performance.now();
  for (let i = 0; i < PAYMENTS; i++) {
    const { bolt11 } = node.createInvoice(1_000_000n, "bench");
    const r = await world.lightning.node.payInvoice(bolt11, 100_000n);
    if (r.status !== "succeeded") throw new Error("payment failed");
  }
  return { ms: (performance.now() - started) / PAYMENTS, node };
};

export const benchTower = async (world: Harness) => {
  await world.storage.db();
  const seed = crypto.getRandomValues(new Uint8Array(32));
  const client = new TowerClient(
    world.towerUrl,
    towerKey(seed).secret,
    (i, init) => fetch(i, init),
    () => {},
  );
  const plain = await payments(world, null);
  const towered = await payments(world, client);
  await until(
    "appointments sent",
    async () => {
      await client.flush();
      return client.waiting() === 0;
    },
    120_000,
    250,
  );
  await plain.node.stop();
  await towered.node.stop();
  console.log(
    `watchtower appointments: ${Math.round(client.bytes / PAYMENTS).toLocaleString("en")} bytes per payment (${client.sent} for ${PAYMENTS} payments received)`,
  );
  console.log(
    `payment received with a tower: ${towered.ms.toFixed(0)} ms, without: ${plain.ms.toFixed(0)} ms (the wallet's extra time per payment: ${(towered.ms - plain.ms).toFixed(0)} ms)`,
  );

  // A tower holding 10,000 appointments of 100 wallets looks at blocks.
  const db = await world.storage.db();
  const tower = startTower({ db: world.storage.db, esploraUrl: world.esploraUrl });
  const keys = Array.from({ length: 100 }, (_, i) => towerKey(new Uint8Array(32).fill(i + 1)));
  for (let i = 0; i < STORED; i += 500) {
    const values: unknown[] = [];
    const rows: string[] = [];
    for (let j = i; j < i + 500; j++) {
      const a = appointmentFor(
        keys[j % 100]!.secret,
        crypto.getRandomValues(new Uint8Array(32)),
        new Uint8Array(190),
      );
      rows.push(`($${values.length + 1}, $${values.length + 2}, $${values.length + 3}, 0)`);
      values.push(a.user, a.locator, hex.decode(a.blob));
    }
    await db.query(
      `INSERT INTO tower_appointments (user_key, locator, blob, created_at) VALUES ${rows.join(",")}`,
      values,
    );
  }
  await tower.check();
  const times: number[] = [];
  for (let b = 0; b < 5; b++) {
    for (let t = 0; t < 20; t++) await world.faucet(world.faucetAddress, 10_000n);
    await world.mine(1);
    const started = performance.now();
    await tower.check();
    times.push(performance.now() - started);
  }
  tower.stop();
  console.log(
    `watchtower with ${(await tower.count()).toLocaleString("en")} appointments: ${(times.reduce((a, b) => a + b, 0) / times.length).toFixed(1)} ms per block of ~21 transactions (reading the block from Esplora included)`,
  );
};
