import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { newEvent, stamp } from "../../events/make";
import { foldEvents } from "../../projections";
import type { HandlerContext } from "../context";
import { federationResyncProgress, resyncFederation } from "./resync";
import { failure, fixedStamp, offlineContext } from "../context.testing";
import { joinedCashu } from "../../events/events.testing";

const mint = "http://127.0.0.1:1/cashu";
const joined = joinedCashu(mint, "Mint");
const ctxWith = (events: ReturnType<typeof newEvent>[]): HandlerContext =>
  offlineContext(foldEvents(stamp(events, fixedStamp)), { ecash: null });

describe("federation resync", () => {
  it("is refused outside safe mode, and for a custodian the owner did not join", async () => {
    const cmd = { _tag: "ResyncFederation", federationId: mint } as const;
    expect(await failure(resyncFederation(cmd, ctxWith([joined])))).toMatchObject({
      _tag: "WalletState",
      key: "federations.resync_safe_mode",
    });
    const safe = newEvent("wallet.safe_mode_set", { enabled: true });
    expect(
      await failure(resyncFederation({ ...cmd, federationId: "http://elsewhere" }, ctxWith([joined, safe]))),
    ).toMatchObject({ message: "No from/to federation" });
    // Joined, in safe mode, before the ecash engine runs: said so, nothing started.
    expect(await failure(resyncFederation(cmd, ctxWith([joined, safe])))).toMatchObject({
      key: "error_ecash_not_ready",
    });
  });

  it("has no progress before a resync started", async () => {
    const r = await Effect.runPromise(
      federationResyncProgress({ _tag: "FederationResyncProgress", federationId: mint }, ctxWith([joined])),
    );
    expect(r.result).toBeNull();
    expect(r.events).toEqual([]);
  });
});
