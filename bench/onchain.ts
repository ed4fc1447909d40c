import { Effect } from "effect";
import type { Harness } from "../harness/world";
import { stamp } from "../src/events/make";
import { makeOnchainPort } from "../src/engine/onchain/live";
import { foldEvents } from "../src/projections";
import { toEvents } from "../property-tests/arbitraries";

const MNEMONIC =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

const counting = () => {
  let n = 0;
  const fetchFn = ((input: RequestInfo | URL, init?: RequestInit) => {
    n++;
    return fetch(input, init);
  }) as typeof fetch;
  return { fetchFn, count: () => n, reset: () => (n = 0) };
};

/**
 * Sync of a wallet that received 1,000 payments spread over 50 addresses: wall time and HTTP requests of
 * the first full sync, then of a sync with nothing new.
 */
export const benchOnchainSync = async (world: Harness) => {
  const setup = makeOnchainPort(MNEMONIC, "regtest", world.esploraUrl);
  const addresses = Array.from({ length: 50 }, (_, i) => setup.addressAt("external", i));
  const t0 = performance.now();
  for (let i = 0; i < 1000; i++) {
    await world.faucet(addresses[i % addresses.length]!, 10_000n + BigInt(i));
    if (i % 100 === 99) await world.mine(1);
  }
  await world.mine(1);
  console.log(
    `(set-up: 1,000 payments to 50 addresses in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );

  const http = counting();
  const port = makeOnchainPort(MNEMONIC, "regtest", world.esploraUrl, http.fetchFn);
  const s = {
    uuid: (() => {
      let i = 0;
      return () => `e${++i}`;
    })(),
    now: () => 1,
    device: "bench",
  };
  let states = foldEvents(toEvents([]));
  const t1 = performance.now();
  const events = await Effect.runPromise(port.sync(states.onchain));
  const fullMs = performance.now() - t1;
  states = foldEvents(stamp(events, s), states);
  console.log(
    `on-chain full sync, 1,000 transactions on 50 addresses: ${fullMs.toFixed(0)} ms, ${http.count()} HTTP requests, ${states.onchain.txs.size} transactions found`,
  );

  http.reset();
  const t2 = performance.now();
  const again = await Effect.runPromise(port.sync(states.onchain));
  console.log(
    `on-chain steady-state sync with nothing new: ${(performance.now() - t2).toFixed(0)} ms, ${http.count()} HTTP requests, ${again.length} events`,
  );
};
