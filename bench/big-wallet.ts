import "fake-indexeddb/auto";
import { Effect } from "effect";
import { exportState } from "../src/commands/wallet/state-file";
import { stateCipher } from "../src/commands/wallet/state-cipher";
import { emptyDoc, makeChange } from "../src/crdt/doc";
import { initCrdtNode } from "../src/crdt/node";
import { WalletDb } from "../src/events/db";
import { appendEvents } from "../src/events/log";
import { stamp } from "../src/events/make";
import { KV } from "../src/events/storage-keys";
import type { WalletEvent } from "../src/events/types";
import { foldEvents } from "../src/projections";
import { crdtProjection } from "../src/projections/crdt";
import { busyLog } from "./replay";

/** The big wallet's contact number `i`. */
export const bigContact = (i: number) => ({
  id: `contact-${i}`,
  name: `Person ${i}`,
  npub: null,
  ln_address: `person${i}@example.com`,
  lnurl: null,
  image_url: null,
  is_followed: false,
  created_at: 1_700_000_000 + i,
});

/** The big wallet's custodians: `n` Cashu mints joined (none reachable; only their records count). */
export const custodianEvents = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    type: "ecash.joined" as const,
    payload: {
      mint: `http://127.0.0.1:9/mint-${i}`,
      kind: "cashu" as const,
      name: `Mint ${i}`,
      welcome: "",
      expires_at: null,
      invite: `http://127.0.0.1:9/mint-${i}`,
    },
  }));

export const BIG_PASSWORD = "bench password";

/**
 * A returning owner's wallet that is not empty: `activity` on-chain payments (each with its address and
 * confirmation), `contacts` contacts in the owner's document, and `custodians` Cashu mints joined (at
 * loopback addresses nothing answers, so no mint is reached). Answers its state file, to import in a browser.
 */
export const bigWalletState = async (
  opts: { activity?: number; contacts?: number; custodians?: number } = {},
): Promise<{ json: string; events: number }> => {
  const { activity = 5000, contacts = 1000, custodians = 3 } = opts;
  await initCrdtNode();
  // busyLog makes an address, a payment and its confirmation per row, after the wallet's creation.
  const log: WalletEvent[] = busyLog(activity * 3 + 1);
  let n = 0;
  const s = { uuid: () => `big-${++n}`, now: () => 1_800_000_000_000 + n, device: "bb" };
  const change = makeChange(emptyDoc(), s.device, (d) => {
    for (let i = 0; i < contacts; i++) d.contacts[`contact-${i}`] = bigContact(i);
  });
  const more = stamp(
    [
      ...(change ? [{ type: "crdt.change" as const, payload: { change } }] : []),
      ...custodianEvents(custodians),
    ],
    s,
  );
  const events = [...log, ...more];
  const db = new WalletDb(`bench-big-${Date.now()}`);
  await appendEvents(db, events, [{ key: KV.seed, value: { mnemonic: `${"abandon ".repeat(11)}about` } }]);
  const doc = crdtProjection.view(foldEvents(events).crdt);
  const { json } = await Effect.runPromise(
    exportState(db, doc, "regtest", "wallet-1", BIG_PASSWORD, stateCipher, Date.now()),
  );
  await db.delete();
  return { json, events: events.length };
};
