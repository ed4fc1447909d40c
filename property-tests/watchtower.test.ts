/**
 * Properties of the protection while closed. (1) An appointment is opaque without its commitment's txid:
 * no other txid opens it, and two appointments of one justice transaction for different commitments share
 * nothing. (2) Over random payments both ways, the partner publishing any state it revoked loses the whole
 * channel: to the wallet's own node when it runs, to the watchtower when it is stopped.
 * TOWER_RUNS and TOWER_SEED widen or repeat the second.
 */
import fc from "fast-check";
import { hex } from "@scure/base";
import { beforeAll, describe, expect, it } from "vitest";
import { stopAfterAll } from "../harness/stop-after-all";
import { until } from "../harness/until";
import { openUsableChannel, towerWatchedNode } from "../harness/wallet-node";
import { type Harness, startHarness } from "../harness/world";
import type { LightningNode, NodeEvent } from "../src/engine/lightning/node";
import { MemoryBlobStore } from "../src/engine/lightning/store";
import { decryptJustice, encryptJustice, locatorOf } from "../src/engine/tower/appointment";

const RUNS = Number(process.env.TOWER_RUNS ?? 2);

describe("an appointment", () => {
  it("opens only with its commitment's txid, and says nothing else", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 60, maxLength: 400 }),
        (txid, other, justice) => {
          fc.pre(hex.encode(txid) !== hex.encode(other));
          const blob = encryptJustice(justice, txid);
          expect(decryptJustice(blob, txid)).toEqual(justice);
          expect(decryptJustice(blob, other)).toBeNull();
          // Only the size shows; the same justice for another commitment looks unrelated.
          expect(blob.length).toBe(justice.length + 16);
          const again = encryptJustice(justice, other);
          expect(hex.encode(again)).not.toContain(hex.encode(blob.slice(0, 8)));
          expect(locatorOf(txid)).toEqual(txid.slice(0, 16));
        },
      ),
      { numRuns: 200 },
    );
  });
});

let h: Harness;
const nodes: LightningNode[] = [];
beforeAll(async () => {
  h = await startHarness({ port: 0 });
}, 180_000);
stopAfterAll(() => [...nodes, h]);

const step = fc.record({ toWallet: fc.boolean(), sats: fc.integer({ min: 1_000, max: 20_000 }) });

describe("a partner publishing a revoked state", () => {
  it("loses the whole channel, whichever state it publishes and whether the wallet runs or not", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 5 }),
        fc.nat(),
        fc.boolean(),
        async (steps, pick, stopped) => {
          const events: NodeEvent[] = [];
          const seed = crypto.getRandomValues(new Uint8Array(32));
          const store = new MemoryBlobStore();
          const { tower, watched, start } = towerWatchedNode(h, { seed, store, events });
          let wallet = await start();
          nodes.push(wallet);
          const sync = async () => {
            await h.lightning.node.sync();
            await wallet.sync();
          };
          const pending = await openUsableChannel(h, wallet, events, { opener: "lsp", sats: 200_000n });
          // The wallet has something first, so payments can go both ways.
          const outbound = (node: LightningNode) =>
            node.channels().find((c) => c.channelId === pending.channelId)?.outboundSats ?? 0n;
          const sendable = (node: LightningNode) =>
            node.channels().find((c) => c.channelId === pending.channelId)?.sendableSats ?? 0n;
          for (const asked of [{ toWallet: true, sats: 50_000 }, ...steps]) {
            // A step its payer cannot afford goes the other way: the property is about states, not refusals.
            const payer = asked.toWallet ? h.lightning.node : wallet;
            const s = sendable(payer) >= BigInt(asked.sats) ? asked : { ...asked, toWallet: !asked.toWallet };
            const msat = BigInt(s.sats) * 1000n;
            // The payment is settled on both sides (the commitment dance over) before the next one.
            const receiver = s.toWallet ? wallet : h.lightning.node;
            const before = outbound(receiver);
            const r = s.toWallet
              ? await h.lightning.node.payInvoice(wallet.createInvoice(msat, "in").bolt11, 100_000n)
              : await wallet.payInvoice(h.lightning.node.createInvoice(msat, "out").bolt11, 100_000n);
            expect(r.status).toBe("succeeded");
            await until("settled", () => outbound(receiver) > before);
          }
          const revoked = h.lightning.revokedStates(pending.outpoint);
          expect(revoked.length).toBeGreaterThan(0);
          const index = revoked[pick % revoked.length]!;
          if (stopped) {
            // The wallet closes once the tower holds the state the partner will publish: one whose revocation
            // the wallet never received before it closed is one no one can punish.
            const published = h.lightning.oldStateTxid(pending.outpoint, index);
            await until(
              "appointments",
              async () => {
                await tower.flush();
                return watched.has(published) && tower.waiting() === 0;
              },
              120_000,
              250,
            );
            await wallet.stop();
          }
          const cheat = await h.lightning.cheat(pending.outpoint, index);
          await h.waitForTx(cheat.txid);
          await h.mine(1);
          if (stopped) {
            // The tower broadcasts within a block; the wallet comes back later.
            await until(
              "the tower's justice",
              async () => {
                const rows = await (await h.storage.db()).query<{
                  commitment_txid: string;
                  justice_txid: string | null;
                }>("SELECT commitment_txid, justice_txid FROM tower_breaches WHERE commitment_txid=$1", [
                  cheat.txid,
                ]);
                return (rows.rows[0]?.justice_txid ?? null) !== null;
              },
              60_000,
              250,
            );
            await h.mine(1);
            wallet = await start();
            nodes.push(wallet);
          }
          await until(
            "the channel swept home",
            async () => {
              await h.mine(1);
              await sync();
              const swept = events.reduce((s, e) => (e.type === "outputs_swept" ? s + e.sats : s), 0n);
              return swept > 200_000n - 6_000n;
            },
            240_000,
            300,
          );
          await wallet.stop();
        },
      ),
      {
        numRuns: RUNS,
        ...(process.env.TOWER_SEED ? { seed: Number(process.env.TOWER_SEED) } : {}),
        endOnFailure: true,
      },
    );
  }, 1_200_000);
});
