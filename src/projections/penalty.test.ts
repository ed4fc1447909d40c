import { describe, expect, it } from "vitest";
import { type NewEvent, newEvent, stamp } from "../events/make";
import { validateEvent } from "../events/validate";
import { deriveViews } from "./index";
import { hash, fold } from "./projections.testing";

const CHANNEL = hash(1);

/** A 200,000-sat channel whose partner published a revoked state: ours (170,000) and theirs (29,500) come. */
const breached = [
  newEvent("ln.channel_closed", {
    channel_id: CHANNEL,
    peer: `02${"aa".repeat(32)}`,
    outpoint: `${hash(101)}:0`,
    reason: "the partner published a revoked state",
    capacity_sats: "200000",
    balance_sats: "170000",
  }),
  newEvent("ln.channel_breached", { channel_id: CHANNEL, claimable_sats: "199500" }),
];
const swept = (n: number, sats: bigint, left?: bigint) =>
  newEvent("ln.outputs_swept", {
    txid: hash(200 + n),
    sats: sats.toString(),
    channel_ids: [CHANNEL],
    ...(left === undefined ? {} : { claims_left_sats: left.toString() }),
  });

describe("a punished partner's channel coming home in two sweeps", () => {
  it("is told as on its way, counted once, until the last sweep brings the whole of it", () => {
    // Our side is swept first; the partner's side, taken by the justice transaction, a block later.
    const first = deriveViews(fold([...breached, swept(1, 169_400n, 29_500n)]));
    expect(first.penalties).toMatchObject([{ channel_id: CHANNEL, amount: 199_500n, swept: false }]);
    const row = first.activity.items.find((i) => i.kind === "ChannelPenalty");
    expect(row?.amount_sats).toBe(199_500n);
    // What came already is not counted again as on its way.
    expect(first.balance.force_close).toBe(199_500n - 169_400n);

    const home = deriveViews(fold([...breached, swept(1, 169_400n, 29_500n), swept(2, 29_200n, 0n)]));
    expect(home.penalties).toMatchObject([{ amount: 198_600n, swept: true }]);
    expect(home.activity.items.find((i) => i.kind === "ChannelPenalty")?.amount_sats).toBe(198_600n);
    expect(home.balance.force_close).toBe(0n);
  });

  it("the watchtower's take, swept at start before the breach is seen, is part of it, not all of it", () => {
    const [closed, breach] = breached as [NewEvent, NewEvent];
    // The wallet opens after the tower took the partner's side: the recovery scan sweeps that first.
    const early = [closed, swept(1, 29_200n, 0n), breach];
    expect(deriveViews(fold(early)).penalties).toMatchObject([{ amount: 199_500n, swept: false }]);
    // Then the wallet's own side, and nothing is left to claim: the whole channel, both sweeps.
    expect(deriveViews(fold([...early, swept(2, 169_400n, 0n)])).penalties).toMatchObject([
      { amount: 198_600n, swept: true },
    ]);
  });

  it("a sweep written before the wallet counted what was left brought everything", () => {
    expect(deriveViews(fold([...breached, swept(1, 199_000n)])).penalties).toMatchObject([
      { amount: 199_000n, swept: true },
    ]);
  });

  it("the tower's take swept with the wallet's own output, then handed again by LDK, is counted once", () => {
    // One sweep brings both sides; LDK later hands the tower's take, already spent by that sweep: 0 sats.
    const again = newEvent("ln.outputs_swept", {
      txid: hash(201),
      sats: "0",
      channel_ids: [CHANNEL],
      claims_left_sats: "0",
    });
    const views = deriveViews(fold([...breached, swept(1, 198_900n, 0n), again]));
    expect(views.penalties).toMatchObject([{ amount: 198_900n, swept: true }]);
    expect(views.activity.items.find((i) => i.kind === "ChannelPenalty")?.amount_sats).toBe(198_900n);
    expect(views.balance.force_close).toBe(0n);
  });

  it("the wallet's own output swept while the tower's take waits to be: on its way until both came", () => {
    const first = deriveViews(fold([...breached, swept(1, 169_400n, 29_700n)]));
    expect(first.penalties).toMatchObject([{ amount: 199_500n, swept: false }]);
    const home = deriveViews(fold([...breached, swept(1, 169_400n, 29_700n), swept(2, 29_400n, 0n)]));
    expect(home.penalties).toMatchObject([{ amount: 198_800n, swept: true }]);
    expect(home.activity.items.find((i) => i.kind === "ChannelPenalty")?.amount_sats).toBe(198_800n);
  });

  it("a log that told the channel home before the tower's take was swept still counts the take when it comes", () => {
    const early = deriveViews(fold([...breached, swept(1, 169_400n, 0n)]));
    // What came back on-chain so far, no more.
    expect(early.penalties).toMatchObject([{ amount: 169_400n, swept: true }]);
    const late = deriveViews(fold([...breached, swept(1, 169_400n, 0n), swept(2, 29_200n, 0n)]));
    expect(late.penalties).toMatchObject([{ amount: 198_600n, swept: true }]);
    expect(late.activity.items.find((i) => i.kind === "ChannelPenalty")?.amount_sats).toBe(198_600n);
    expect(late.balance.force_close).toBe(0n);
  });

  it("the log checks what is left as sats", () => {
    const check = (e: NewEvent) =>
      typeof validateEvent({ ...stamp([e], { uuid: () => "x", now: () => 1, device: "d" })[0], seq: 1 });
    expect(check(swept(1, 1_000n, 0n))).toBe("object");
    expect(check(swept(1, 1_000n))).toBe("object");
    const bad = swept(1, 1_000n);
    (bad.payload as unknown as Record<string, unknown>).claims_left_sats = -1;
    expect(check(bad)).toBe("string");
  });
});
