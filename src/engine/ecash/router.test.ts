/**
 * The ecash port over both adapters: Cashu mints by URL, federations by id. Resync against the local
 * world's mint with the real Cashu adapter: a wallet that lost its store finds its ecash again from the seed,
 * the progress is readable while it runs, and the events come to the log once it ends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson } from "../../../harness/http";
import { type Harness, startHarness } from "../../../harness/world";
import type { NewEvent } from "../../events/make";
import { newMnemonic } from "../keys/mnemonic";
import { MemoryBlobStore } from "../lightning/store";
import { startCashu } from "./cashu/live";
import type { EcashHooks, EcashPort } from "./port";
import { isFederationId, startEcashRouter } from "./router";

const LONG = 180_000;
const federation = "c8d423964c7ad944d30f57359b6e5b260e211dcfdb945140e28d4df51fd572d2";

describe("the ecash port", () => {
  let h: Harness;
  let mint: string;
  const mnemonic = newMnemonic();
  const recorded: NewEvent[] = [];
  const router = (store = new MemoryBlobStore()): Promise<EcashPort> => {
    const hooks: EcashHooks = { mints: () => [mint], record: async (e) => void recorded.push(...e) };
    return startEcashRouter({
      hooks,
      cashu: (h2) => startCashu({ mnemonic, store, fetch, hooks: h2 }),
      // This platform carries no Fedimint client (its own test loads the real one).
      fedimint: null,
    });
  };

  beforeAll(async () => {
    h = await startHarness({ port: 0 });
    mint = h.cashu.mintUrl;
  }, LONG);
  afterAll(async () => {
    await h?.stop();
  });

  it("tells federation ids from mint URLs", () => {
    expect(isFederationId(federation)).toBe(true);
    expect(isFederationId(federation.toUpperCase())).toBe(false);
    expect(isFederationId(federation.slice(1))).toBe(false);
    expect(isFederationId("http://127.0.0.1/cashu")).toBe(false);
  });

  it(
    "a federation goes to the Fedimint client, never to a mint: without one, 'Failed to connect to a federation.'",
    async () => {
      const port = await router();
      await expect(port.balance(federation)).rejects.toMatchObject({
        message: "Failed to connect to a federation.",
      });
      await expect(port.receiveQuote(federation, 1_000n)).rejects.toMatchObject({
        message: "Failed to connect to a federation.",
      });
      await port.stop();
    },
    LONG,
  );

  it(
    "a resync finds what the seed holds at a mint, shows its progress, and records it once it ends",
    async () => {
      const first = await router();
      expect(first.resyncProgress(mint)).toBeNull();
      const q = await first.receiveQuote(mint, 1_500n);
      await postJson(h.esploraUrl, "/ln/pay", { bolt11: q.bolt11 });
      expect(await first.checkReceives(mint)).toHaveLength(1);
      await first.stop();

      // The same seed, its store lost: the resync runs in the background.
      const fresh = await router();
      await fresh.resync(mint);
      const started = fresh.resyncProgress(mint);
      expect(started).toMatchObject({ done: false, error: null });
      // Asked again while it runs: not started twice.
      await fresh.resync(mint);
      let p = fresh.resyncProgress(mint);
      while (!p?.done) {
        await new Promise((r) => setTimeout(r, 200));
        p = fresh.resyncProgress(mint);
      }
      expect(p).toMatchObject({ done: true, error: null, recoveredSats: 1_500n });
      expect(p.total).toBeGreaterThan(0);
      expect(p.complete).toBe(p.total);
      const restored = recorded.filter((e) => e.type === "ecash.received" && e.payload.via === "restore");
      expect(restored).toHaveLength(1);
      expect(restored[0]).toMatchObject({ payload: { mint, amount: "1500" } });
      expect(await fresh.balance(mint)).toBe(1_500n);

      // A second resync finds nothing new.
      await fresh.resync(mint);
      p = fresh.resyncProgress(mint);
      while (!p?.done) {
        await new Promise((r) => setTimeout(r, 200));
        p = fresh.resyncProgress(mint);
      }
      expect(p.recoveredSats).toBe(0n);
      await fresh.stop();
    },
    LONG,
  );
});
