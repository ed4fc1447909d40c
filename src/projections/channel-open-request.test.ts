import { describe, expect, it } from "vitest";
import { newEvent, stamp } from "../events/make";
import { validateEvent } from "../events/validate";
import { deriveViews } from "./index";
import { channelPending, fold, hash, LSP, OTHER } from "./projections.testing";

const requested = (id: string, peer: string, sats: bigint) =>
  newEvent("ln.open_requested", { request_id: id, peer, amount_sats: sats.toString() });
const funded = (n: number, peer: string, outbound = true) =>
  channelPending(n, hash(n), peer, { capacity_sats: "200000", fee_sats: "300", is_outbound: outbound });

describe("a channel open asked for, until its funding is out", () => {
  it("stays asked for until the funding of an open to that peer is out, oldest first", () => {
    const s = fold([requested("r1", LSP, 200_000n), requested("r2", LSP, 150_000n), funded(1, LSP)]);
    expect([...s.lightning.requestedOpens.keys()]).toEqual(["r2"]);
    // A channel the peer opened to us is not ours being funded.
    expect([
      ...fold([requested("r1", LSP, 200_000n), funded(1, LSP, false)]).lightning.requestedOpens.keys(),
    ]).toEqual(["r1"]);
  });

  it("an open a stop cut short is told as interrupted with what was asked, and is asked for no longer", () => {
    const s = fold([requested("r1", OTHER, 200_000n), newEvent("ln.open_interrupted", { request_id: "r1" })]);
    expect(s.lightning.requestedOpens.size).toBe(0);
    expect(s.lightning.interruptedOpens).toMatchObject([{ peer: OTHER, amountSats: 200_000n }]);
    // The screens read it from the views, dated when it was asked for.
    expect(deriveViews(s).interrupted_opens).toEqual([{ peer: OTHER, amount: 200_000n, at: 2_000 }]);
  });

  it("a channel closed before it was funded ends the open asked of that peer", () => {
    const s = fold([
      requested("r1", OTHER, 200_000n),
      newEvent("ln.channel_closed", {
        channel_id: hash(9),
        peer: OTHER,
        outpoint: null,
        reason: "funding failed",
        capacity_sats: null,
        // What the node had counted ours in the channel before its funding failed.
        balance_sats: "200000",
      }),
    ]);
    expect(s.lightning.requestedOpens.size).toBe(0);
    // Nothing comes back from a channel that was never funded: its coins never left the wallet.
    expect(deriveViews(s).balance).toMatchObject({ force_close: 0n, total: 0n });
  });

  it("the log checks the new events' fields", () => {
    const [event] = stamp([requested("r1", LSP, 200_000n)], { uuid: () => "x", now: () => 1, device: "d" });
    expect(typeof validateEvent({ ...event, seq: 1 })).toBe("object");
    const [bad] = stamp([newEvent("ln.open_interrupted", { request_id: 7 as unknown as string })], {
      uuid: () => "y",
      now: () => 1,
      device: "d",
    });
    expect(typeof validateEvent({ ...bad, seq: 2 })).toBe("string");
  });
});
