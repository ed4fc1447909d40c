import { describe, expect, it } from "vitest";
import { WalletClient } from "../commands/client";
import type { FromWorker, ToWorker } from "../commands/protocol";
import { makeNewWallet, NEW_WALLET_VIEWS, takeNewWalletFailure, walletMade } from "./new-wallet";

/** The worker's end of the bus, answered by hand: it holds each command until the test replies to it. */
const bus = () => {
  const asked: Extract<ToWorker, { kind: "command" }>[] = [];
  const worker = {
    onmessage: null as ((ev: MessageEvent<FromWorker>) => void) | null,
    postMessage: (m: ToWorker) => {
      if (m.kind === "command") asked.push(m);
    },
    terminate: () => undefined,
  };
  const reply = (m: FromWorker) => worker.onmessage?.({ data: m } as MessageEvent<FromWorker>);
  return { client: new WalletClient(worker), asked, reply };
};

const settled = async (p: Promise<unknown>) =>
  Promise.race([
    p.then(
      () => "made",
      () => "failed",
    ),
    new Promise((r) => setTimeout(() => r("waiting"), 20)),
  ]);

describe("a new wallet made behind the first-run step", () => {
  it("is waited for until the worker has written it", async () => {
    const { client, asked, reply } = bus();
    expect(await settled(walletMade())).toBe("made");
    const made = makeNewWallet(client);
    expect(asked.map((m) => m.command._tag)).toEqual(["CreateWallet"]);
    expect(await settled(walletMade())).toBe("waiting");
    reply({ kind: "result", id: asked[0]!.id, ok: true, value: { walletId: "w" } });
    await made;
    expect(await settled(walletMade())).toBe("made");
    expect(takeNewWalletFailure()).toBeNull();
  });

  it("a failure reaches whoever waits, and the welcome screen once", async () => {
    const { client, asked, reply } = bus();
    const made = makeNewWallet(client);
    const waiting = walletMade();
    reply({
      kind: "result",
      id: asked[0]!.id,
      ok: false,
      error: { _tag: "WalletState", message: "A wallet already exists on this device." },
    });
    await expect(made).rejects.toThrow("A wallet already exists on this device.");
    await expect(waiting).rejects.toThrow("A wallet already exists on this device.");
    await new Promise((r) => setTimeout(r, 0));
    expect(String(takeNewWalletFailure())).toContain("A wallet already exists");
    expect(takeNewWalletFailure()).toBeNull();
    // Nothing is being made any more: the steps after the welcome screen stop waiting.
    expect(await settled(walletMade())).toBe("made");
  });

  it("home draws from a wallet with nothing in it until the worker's views arrive, which replace them", async () => {
    const { client, asked, reply } = bus();
    const made = makeNewWallet(client);
    // Nothing held anywhere, and no wallet yet: home shows 0 and takes no action.
    expect(client.views.balance?.total).toBe(0n);
    expect(client.views.activity?.items).toEqual([]);
    expect(client.views.wallet?.exists).toBe(false);
    const wallet = {
      exists: true,
      walletId: "w",
      network: "regtest",
      has_backed_up: false,
      safe_mode: false,
    };
    reply({ kind: "views", views: { wallet } as never });
    reply({ kind: "result", id: asked[0]!.id, ok: true, value: { walletId: "w" } });
    await made;
    expect(client.views.wallet).toEqual(wallet);
  });

  it("never covers views the worker already sent", () => {
    const { client, reply } = bus();
    const balance = { ...NEW_WALLET_VIEWS.balance!, confirmed: 5n, total: 5n };
    reply({ kind: "views", views: { wallet: NEW_WALLET_VIEWS.wallet!, balance } as never });
    void makeNewWallet(client).catch(() => undefined);
    expect(client.views.balance).toEqual(balance);
  });
});

describe("the views home draws while a new wallet is made", () => {
  it("are what the folds make of a log with nothing in it", async () => {
    const { deriveViews, foldEvents } = await import("../projections");
    const empty = deriveViews(foldEvents([])) as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(NEW_WALLET_VIEWS)) expect(value, key).toEqual(empty[key]);
  });
});
