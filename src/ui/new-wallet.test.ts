import { describe, expect, it } from "vitest";
import { WalletClient } from "../commands/client";
import type { FromWorker, ToWorker } from "../commands/protocol";
import { makeNewWallet, takeNewWalletFailure, walletMade } from "./new-wallet";

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
});
