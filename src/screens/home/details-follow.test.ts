import { describe, expect, it } from "vitest";
import type { ActivityItem, LightningDetails } from "../../projections/activity";
import { followRow, rowStatus } from "./details-follow";

const row = (patch: Partial<ActivityItem> = {}): ActivityItem => ({
  id: "p1",
  kind: "Lightning",
  labels: [],
  contacts: [],
  amount_sats: 1_000n,
  inbound: false,
  last_updated: 0,
  privacy_level: "NotAvailable",
  seen_at: 100,
  dropped: false,
  ...patch,
});

const payment = (status: LightningDetails["status"]): LightningDetails => ({
  payment_hash: "p1",
  inbound: false,
  amount_sats: 1_000n,
  fee_sats: 0n,
  status,
  description: null,
  bolt11: null,
  preimage: status === "succeeded" ? "aa".repeat(32) : null,
  destination: null,
  reason: status === "failed" ? "No route found" : null,
  hops: [],
  at: 200,
});

describe("an open details dialog follows the views", () => {
  it("shows the row as the activity view has it now, not as it was tapped", () => {
    const tapped = row();
    expect(rowStatus(followRow([tapped], tapped)!, null)).toBe("pending");
    // The payment settles while the dialog is open: the view's new row is the one shown.
    const settled = row({ last_updated: 200 });
    expect(followRow([settled, row({ id: "other" })], tapped)).toBe(settled);
    expect(rowStatus(followRow([settled], tapped)!, null)).toBe("done");
    // A transaction the chain dropped meanwhile says so.
    const dropped = row({ kind: "OnChain", dropped: true, last_updated: 300 });
    expect(rowStatus(followRow([dropped], row({ kind: "OnChain" }))!, null)).toBe("dropped");
  });

  it("keeps the row a failed payment took out of the list, and says it failed", () => {
    const tapped = row();
    expect(followRow([row({ id: "other" })], tapped)).toBe(tapped);
    expect(rowStatus(followRow([], tapped)!, payment("failed"))).toBe("failed");
    expect(rowStatus(tapped, payment("succeeded"))).toBe("done");
    expect(rowStatus(tapped, payment("pending"))).toBe("pending");
  });

  it("never mixes rows of another kind with the same id, and shows nothing when nothing is open", () => {
    const open = row({ id: "c1", kind: "ChannelOpen" });
    const close = row({ id: "c1", kind: "ChannelClose" });
    expect(followRow([close], open)).toBe(open);
    expect(followRow([close], null)).toBeNull();
  });
});
