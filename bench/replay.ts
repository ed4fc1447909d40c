import "fake-indexeddb/auto";
import { Effect } from "effect";
import { toEvents } from "../property-tests/arbitraries";
import { crdtProjection } from "../src/projections/crdt";
import { exportState, importState } from "../src/commands/wallet/state-file";
import { WalletDb } from "../src/events/db";
import { appendEvents } from "../src/events/log";
import { KV } from "../src/events/storage-keys";
import { deriveViews, foldEvents } from "../src/projections";
import { stateCipher } from "../src/commands/wallet/state-cipher";

/** A 100,000-event log shaped like a busy wallet: addresses, payments, confirmations. */
export const busyLog = (n: number) => {
  const steps = [];
  for (let i = 0; steps.length < n; i++) {
    steps.push({ k: "address" as const, keychain: "external" as const, label: "" });
    steps.push({
      k: "tx" as const,
      received: BigInt(1000 + i),
      sent: 0n,
      fee: 0n,
      outgoing: false,
      label: "",
    });
    steps.push({ k: "confirm" as const, pick: i, height: 500 + i, time: 1_700_000_000 + i });
  }
  return toEvents(steps.slice(0, n - 1));
};

export const benchReplay = async () => {
  const events = busyLog(100_000);
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    const s = foldEvents(events);
    deriveViews(s);
    runs.push(performance.now() - t0);
  }
  runs.sort((a, b) => a - b);
  const median = runs[2]!;
  console.log(
    `replay: ${events.length} events in ${median.toFixed(0)} ms (median of 5) = ${Math.round(events.length / (median / 1000)).toLocaleString("en")} events/s`,
  );

  const db = new WalletDb("bench-export");
  await appendEvents(db, events, [{ key: KV.seed, value: { mnemonic: `${"abandon ".repeat(11)}about` } }]);
  const states = foldEvents(events);
  let t0 = performance.now();
  const exported = await Effect.runPromise(
    exportState(
      db,
      crdtProjection.view(states.crdt),
      "regtest",
      "wallet-1",
      "bench password",
      stateCipher,
      Date.now(),
    ),
  );
  const exportMs = performance.now() - t0;
  const target = new WalletDb("bench-import");
  t0 = performance.now();
  await Effect.runPromise(importState(target, exported.json, "bench password", "regtest", null, stateCipher));
  const importMs = performance.now() - t0;
  console.log(
    `export of ${events.length} events: ${(exportMs / 1000).toFixed(2)} s (${(exported.json.length / 1e6).toFixed(1)} MB file); import of that ${events.length}-event state file: ${(importMs / 1000).toFixed(2)} s (Node, fake IndexedDB; the password's stretch included)`,
  );
  return { json: exported.json, password: "bench password", events: events.length };
};
