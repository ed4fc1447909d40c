import { Effect } from "effect";
import { npubEncode } from "nostr-tools/nip19";
import { generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { toEvents } from "../property-tests/arbitraries";
import { handlers } from "../src/commands/host/handlers";
import type { HandlerContext } from "../src/commands/context";
import { cacheClient } from "../src/engine/nostr/search";
import { stamp } from "../src/events/make";
import type { WalletEvent } from "../src/events/types";
import { CONTACT_STRIP_LIMIT } from "../src/projections/contacts";
import { deriveViews, foldEvent, foldEvents } from "../src/projections";
import { serveNostr } from "../harness/nostr/standalone";
import { SEARCH_DEBOUNCE_MS } from "../src/ui/incoming";
import { offlineContext } from "../src/commands/context.testing";
import { figure } from "./figures";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Home's contacts strip with 1,000 contacts: the log of 1,000 created contacts folded, and the views the
 * strip reads derived (sorted, most recent first, cut to 40). The render itself is the browser's.
 */
export const benchContactsView = async () => {
  let states = foldEvents(toEvents([]));
  let n = 0;
  const create = handlers.CreateContact!;
  const log: WalletEvent[] = [...toEvents([])];
  const t0 = performance.now();
  for (let i = 0; i < 1000; i++) {
    const ctx: HandlerContext = offlineContext(states, {
      stamp: { uuid: () => `c-${++n}`, now: () => 1_700_000_000_000 + n * 1000, device: "aa" },
    });
    const out = await Effect.runPromise(
      create({ _tag: "CreateContact", name: `Person ${i}`, npub: "", ln_address: `p${i}@example.com` }, ctx),
    );
    for (const e of stamp(out.events, ctx.stamp)) {
      log.push(e);
      states = foldEvent(states, e);
    }
  }
  const createMs = performance.now() - t0;
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t1 = performance.now();
    const views = deriveViews(foldEvents(log));
    views.contacts.slice(0, CONTACT_STRIP_LIMIT);
    runs.push(performance.now() - t1);
  }
  const derive: number[] = [];
  for (let r = 0; r < 20; r++) {
    const t1 = performance.now();
    deriveViews(states).contacts.slice(0, CONTACT_STRIP_LIMIT);
    derive.push(performance.now() - t1);
  }
  figure("1,000 contacts made one at a time (commands)", createMs, "ms", 5_000);
  figure("replay of their log", median(runs), "ms");
  console.log(
    `contacts: 1,000 created in ${createMs.toFixed(0)} ms; replay of their log ${median(runs).toFixed(0)} ms; strip's view (40 of 1,000, sorted) ${median(derive).toFixed(1)} ms (medians)`,
  );
  await benchImportFollows();
};

/**
 * An imported follow list of 1,000 people: one ImportContacts command (one change of the owner's document)
 * brings them in, followed; then the fold of that log, as a reload's worker does it.
 */
const benchImportFollows = async () => {
  let n = 0;
  const people = Array.from({ length: 1000 }, (_, i) => ({
    name: `Person ${i}`,
    npub: npubEncode(getPublicKey(generateSecretKey())),
    ln_address: `p${i}@example.com`,
    image_url: "",
  }));
  const log: WalletEvent[] = [...toEvents([])];
  const ctx: HandlerContext = {
    states: foldEvents(log),
    network: "regtest",
    stamp: { uuid: () => `f-${++n}`, now: () => 1_700_000_000_000 + n * 1000, device: "aa" },
    keys: { mnemonic: () => Effect.die("none") },
    onchain: null,
    lightning: null,
    outside: (e) => e,
  };
  const t0 = performance.now();
  const out = await Effect.runPromise(
    handlers.ImportContacts!({ _tag: "ImportContacts", contacts: people }, ctx),
  );
  let states = ctx.states;
  for (const e of stamp(out.events, ctx.stamp)) {
    log.push(e);
    states = foldEvent(states, e);
  }
  const contacts = deriveViews(states).contacts.length;
  const importMs = performance.now() - t0;
  const t1 = performance.now();
  deriveViews(foldEvents(log));
  figure("a follow list of 1,000 imported", importMs, "ms", 1_000);
  console.log(
    `contacts: an imported follow list of 1,000 people brought in as ${contacts} followed contacts in ${importMs.toFixed(0)} ms (one command, one change of the document); replay of that log ${(performance.now() - t1).toFixed(0)} ms`,
  );
};

/**
 * Global search over loopback against the local world's cache with 300 extra people: from the query sent
 * to the results read and checked (signatures included), p50 and p90. A keystroke waits the 250 ms debounce
 * before this starts.
 */
export const benchGlobalSearch = async () => {
  const world = await serveNostr();
  try {
    for (let i = 0; i < 300; i++) world.nostr.seed({ name: `bench${String(i).padStart(3, "0")}` });
    const client = cacheClient((i, init) => fetch(i, init), world.nostr.cacheUrl);
    const times: number[] = [];
    for (let i = 0; i < 60; i++) {
      const t0 = performance.now();
      await client.search(`bench${String(i % 30).padStart(2, "0")}`);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const p = (q: number) => times[Math.floor(times.length * q)]!.toFixed(1);
    console.log(
      `global search (loopback, 10 results from 306 profiles): p50 ${p(0.5)} ms, p90 ${p(0.9)} ms after the ${SEARCH_DEBOUNCE_MS} ms debounce`,
    );
  } finally {
    await world.stop();
  }
};
