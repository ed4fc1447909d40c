import { Effect, Result } from "effect";
import { describe, expect, it } from "vitest";
import { KV } from "../../events/storage-keys";
import { newEvent, stamp } from "../../events/make";
import { validateContents } from "./state-file";

let n = 0;
const stamped = (walletId: string, restored: boolean, device: string) =>
  stamp([newEvent("wallet.created", { walletId, network: "regtest", restored })], {
    uuid: () => `event-${n++}`,
    now: () => 1_700_000_000_000 + n,
    device,
  });

const check = (walletId: string, events: unknown[]) =>
  Effect.runPromise(
    Effect.result(validateContents({ walletId, events, crdt: "", kv: [{ key: KV.seed, value: "x" }] })),
  );

describe("a state file's log", () => {
  it("is the wallet's when one of its creations is the wallet's: a device restored from storage holds its own and the one it restored", async () => {
    const restored = [...stamped("this-device", true, "b"), ...stamped("the-wallet", false, "a")];
    const r = await check("the-wallet", restored);
    expect(Result.isSuccess(r)).toBe(true);
  });

  it("is refused when none of its creations is the wallet's", async () => {
    const r = await check("the-wallet", stamped("another", false, "a"));
    expect(Result.isFailure(r) && r.failure.message).toBe(
      "The file is damaged: the log does not start a wallet.",
    );
  });
});
