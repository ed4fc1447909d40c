/**
 * A punished partner's channel, the wallet reopened after the watchtower took the partner's side: LDK hands
 * the wallet's own output of the revoked commitment, while the tower's take sits at the seed's destination
 * script (its justice transaction pays there). Whatever the order these are found in, the channel is told
 * home only once both came back, each counted once. A fake chain, LDK's real key manager.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { hex } from "@scure/base";
import * as ldk from "lightningdevkit";
import { beforeAll, describe, expect, it } from "vitest";
import { loadLdk } from "../../../services/gossip/pipes";
import { internalBytes } from "./chain";
import type { NodeCore } from "./node-core";
import type { NodeEvent } from "./node-types";
import { MemoryBlobStore, SWEEP_PREFIX } from "./store";
import { Sweeps } from "./sweeps";

beforeAll(() => loadLdk());

const CHANNEL = "11".repeat(32);
const FUNDING = "f0".repeat(32);
const COMMITMENT = "c0".repeat(32);
const JUSTICE = "d0".repeat(32);
const OURS = 170_000n;
const TOWER_TAKE = 29_700n;

/** A node's parts as the sweeps use them, over a chain where the tower's justice transaction is confirmed. */
const world = (opts: { scanFinds: boolean }) => {
  const keys = ldk.KeysManager.constructor_new(crypto.getRandomValues(new Uint8Array(32)), 1n, 1);
  const signer = keys.as_SignerProvider();
  const destination = (signer.get_destination_script(new Uint8Array(32)) as ldk.Result_CVec_u8ZNoneZ_OK).res;
  const destinationHash = hex.encode(sha256(destination).reverse());
  const store = new MemoryBlobStore();
  const events: NodeEvent[] = [];
  const spent = new Map<string, string>();
  /** Held while set: the sweep pass waits in its first look at the chain. */
  let hold: Promise<void> | null = null;
  const client = {
    outspend: async (txid: string, vout: number) => {
      if (hold) await hold;
      const by = spent.get(`${txid}:${vout}`);
      return by ? { spent: true, txid: by } : { spent: false };
    },
    scriptUtxos: async (scripthash: string) =>
      opts.scanFinds && scripthash === destinationHash && !spent.has(`${JUSTICE}:0`)
        ? [{ txid: JUSTICE, vout: 0, value: Number(TOWER_TAKE) }]
        : [],
    tx: async (txid: string) =>
      txid === JUSTICE
        ? { txid, vin: [{ txid: COMMITMENT, vout: 1 }] }
        : txid === COMMITMENT
          ? { txid, vin: [{ txid: FUNDING, vout: 0 }] }
          : null,
    broadcast: async (txHex: string) => txHex.slice(0, 64),
  };
  const monitor = {
    get_a: () => ({ get_txid: () => internalBytes(FUNDING), get_index: () => 0 }),
    get_b: () => ({ get_a: () => hex.decode(CHANNEL) }),
  };
  const core = {
    keys,
    opts: {
      store,
      chain: { client, feeFor: () => 253 },
      sweepScript: async () => hex.decode(`0014${"ab".repeat(20)}`),
      log: () => undefined,
    },
    commit: {
      enqueue: async (writes: { key: string; value: Uint8Array | null }[], then?: () => void) => {
        await store.put(writes);
        then?.();
      },
    },
    // LDK has nothing more to claim: the revoked output is resolved (the tower spent it), ours was handed.
    manager: { list_channels: () => [] },
    chainMonitor: { get_claimable_balances: () => [], list_monitors: () => [monitor] },
    emit: (e: NodeEvent) => events.push(e),
  } as unknown as NodeCore;
  /** A descriptor of `sats` at our destination script, at `txid:vout`. */
  const output = (txid: string, vout: number, sats: bigint) =>
    ldk.SpendableOutputDescriptor.constructor_static_output(
      ldk.OutPoint.constructor_new(internalBytes(txid), vout),
      ldk.TxOut.constructor_new(sats, destination),
      new Uint8Array(32),
    ).write();
  return {
    sweeps: new Sweeps(core),
    store,
    events,
    spent,
    ours: output(COMMITMENT, 0, OURS),
    towerTake: output(JUSTICE, 0, TOWER_TAKE),
    holdChain: () => {
      let release: () => void = () => undefined;
      hold = new Promise<void>((r) => {
        release = r;
      });
      return () => {
        hold = null;
        release();
      };
    },
  };
};

const swept = (events: readonly NodeEvent[]) =>
  events.flatMap((e) => (e.type === "outputs_swept" ? [e] : []));

/** What the channel brought home by the first sweep that says nothing is left to claim. */
const homeAt = (events: readonly NodeEvent[]): bigint | null => {
  let total = 0n;
  for (const e of swept(events)) {
    total += e.sats;
    if (e.claimsLeftSats === 0n) return total;
  }
  return null;
};

const until = async (what: () => boolean) => {
  for (let i = 0; i < 200 && !what(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(what()).toBe(true);
};

describe("a punished partner's channel swept after the watchtower took the partner's side", () => {
  it("brings the tower's take home in the same sweep as the wallet's own output", async () => {
    const w = world({ scanFinds: true });
    w.sweeps.keep(CHANNEL, [w.ours]);
    await until(() => swept(w.events).length > 0);
    await w.sweeps.sweep();
    const home = homeAt(w.events);
    expect(home).not.toBeNull();
    // The whole channel less the sweep's fee, told at once.
    expect(home!).toBeGreaterThan(OURS + TOWER_TAKE - 2_000n);
    expect(home!).toBeLessThan(OURS + TOWER_TAKE);
    expect(swept(w.events).every((e) => e.channelIds.join() === CHANNEL)).toBe(true);
  });

  it("outputs handed while a sweep runs are swept right after it, and the channel is not home before", async () => {
    const w = world({ scanFinds: false });
    await w.store.put([{ key: `${SWEEP_PREFIX}${CHANNEL}/01`, value: listOf([w.ours]) }]);
    const release = w.holdChain();
    const first = w.sweeps.sweep();
    // LDK hands the tower's take (it pays to the destination script) while the pass looks at the chain.
    await new Promise((r) => setTimeout(r, 20));
    w.sweeps.keep(CHANNEL, [w.towerTake]);
    await new Promise((r) => setTimeout(r, 20));
    release();
    await first;
    await until(() => swept(w.events).length >= 2);
    const [ours, take] = swept(w.events) as [
      Extract<NodeEvent, { type: "outputs_swept" }>,
      Extract<NodeEvent, { type: "outputs_swept" }>,
    ];
    expect(ours.claimsLeftSats).toBe(TOWER_TAKE);
    expect(take.claimsLeftSats).toBe(0n);
    expect(homeAt(w.events)!).toBeGreaterThan(OURS + TOWER_TAKE - 2_000n);
  });

  it("the tower's take swept already is not counted again when LDK hands it later", async () => {
    const w = world({ scanFinds: true });
    w.sweeps.keep(CHANNEL, [w.ours]);
    await until(() => swept(w.events).length > 0);
    const [first] = swept(w.events);
    w.spent.set(`${JUSTICE}:0`, first!.txid);
    w.spent.set(`${COMMITMENT}:0`, first!.txid);
    w.sweeps.keep(CHANNEL, [w.towerTake]);
    await until(() => swept(w.events).length > 1);
    expect(swept(w.events)[1]).toMatchObject({ sats: 0n, txid: first!.txid, claimsLeftSats: 0n });
  });
});

const listOf = (items: readonly Uint8Array[]): Uint8Array =>
  new TextEncoder().encode(JSON.stringify(items.map((i) => hex.encode(i))));
