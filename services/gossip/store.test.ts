/**
 * Rapid gossip sync kept in the database every process shares: two services processes on one PostgreSQL, one
 * recording a gossip graph as it changes and the other with no gossip of its own, serve byte-identical full
 * snapshots and deltas, and a process started later serves them at once.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ChannelGossip, DirectionPolicy } from "../../src/engine/lightning/gossip";
import { ownPostgresDatabase } from "../storage/testing";
import type { RunningServices } from "../app";
import { startTestServices } from "../testing/services";

const postgresUrl = process.env.STORAGE_POSTGRES_URL;
const db = ownPostgresDatabase(postgresUrl ?? "", "services_rgs");

const policy = (feeBaseMsat: number): DirectionPolicy => ({
  disabled: false,
  cltvExpiryDelta: 40,
  htlcMinimumMsat: 1n,
  htlcMaximumMsat: 990_000_000n,
  feeBaseMsat,
  feeProportionalMillionths: 100,
});
const node = (n: number) => `02${n.toString(16).padStart(64, "0")}`;
const channel = (block: number, a: number, b: number, fee = 1_000): ChannelGossip => ({
  scid: (BigInt(block) << 40n) | 1n,
  node1: node(a),
  node2: node(b),
  features: new Uint8Array(),
  updates: [policy(fee), policy(fee)],
});

describe.skipIf(!postgresUrl)("gossip shared through the database", () => {
  const started: RunningServices[] = [];
  let graph: ChannelGossip[] = [channel(101, 1, 2), channel(102, 2, 3)];
  const start = (source?: () => ChannelGossip[]) =>
    startTestServices({ DATABASE_URL: db.url }, source ? { gossipSource: source } : {}).then((s) => {
      started.push(s);
      return s;
    });
  beforeAll(async () => {
    await db.create();
  });
  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop()));
    await db.drop();
  });

  const snapshot = async (s: RunningServices, since: number) =>
    Buffer.from(await (await fetch(`${s.url}/rgs/snapshot/${since}`)).arrayBuffer());
  const channelsOf = async (s: RunningServices) =>
    ((await (await fetch(`${s.url}/health`)).json()) as { gossip_channels: number }).gossip_channels;
  const latestSeen = (b: Buffer) => b.readUInt32BE(36);

  test("every process serves the same bytes, deltas included, and a new one at once", async () => {
    const one = await start(() => graph);
    const two = await start();
    await expect.poll(() => channelsOf(two), { timeout: 60_000 }).toBe(2);
    const full = await snapshot(one, 0);
    expect([...full.subarray(0, 4)]).toEqual([76, 68, 75, 1]);
    expect((await snapshot(two, 0)).equals(full)).toBe(true);
    const first = latestSeen(full);

    // The graph changes: a fee, and a new channel; the recording process takes it up.
    graph = [channel(101, 1, 2, 2_000), channel(102, 2, 3), channel(103, 3, 4)];
    await expect.poll(() => channelsOf(two), { timeout: 60_000 }).toBe(3);
    const delta = await snapshot(two, first);
    expect(latestSeen(delta)).toBeGreaterThan(first);
    expect((await snapshot(one, first)).equals(delta)).toBe(true);
    const fullAgain = await snapshot(one, 0);
    expect((await snapshot(two, 0)).equals(fullAgain)).toBe(true);

    // A process started now, with no gossip of its own, serves the same at once.
    const three = await start();
    expect((await snapshot(three, 0)).equals(fullAgain)).toBe(true);
    expect((await snapshot(three, first)).equals(delta)).toBe(true);
  }, 180_000);
});
