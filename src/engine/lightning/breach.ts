/**
 * A channel partner that publishes a state it revoked loses the channel: LDK's monitor sees the old
 * commitment confirm and claims every output of it with justice transactions, on its own. What is left to
 * us is to notice and tell the owner. Each monitor written after a block is looked at: once it lists an
 * output of a revoked commitment it can claim (`Balance_CounterpartyRevokedOutputClaimable`), the node says
 * so once (`revoked_state_seen`), with what the channel now brings back to the wallet.
 */
import { hex } from "@scure/base";
import * as ldk from "lightningdevkit";
import type { NodeEvent } from "./node-types";

/** What a closed channel's monitor says will come back to us, and whether part of it is a revoked state's. */
export const claimsOf = (monitor: ldk.ChannelMonitor): { revokedSats: bigint; totalSats: bigint } =>
  claimsIn(monitor.get_claimable_balances());

/** What `balances` of closed channels will still bring back, and how much of it from revoked states. */
export const claimsIn = (balances: readonly ldk.Balance[]): { revokedSats: bigint; totalSats: bigint } => {
  let revokedSats = 0n;
  let totalSats = 0n;
  for (const b of balances) {
    if (b instanceof ldk.Balance_CounterpartyRevokedOutputClaimable) revokedSats += b.amount_satoshis;
    if (
      b instanceof ldk.Balance_CounterpartyRevokedOutputClaimable ||
      b instanceof ldk.Balance_ClaimableAwaitingConfirmations ||
      b instanceof ldk.Balance_ContentiousClaimable ||
      b instanceof ldk.Balance_MaybeTimeoutClaimableHTLC ||
      b instanceof ldk.Balance_MaybePreimageClaimableHTLC
    )
      totalSats += b.amount_satoshis;
  }
  return { revokedSats, totalSats };
};

/**
 * The persister's look at each written monitor: reports a revoked state of the partner's the first time it
 * is seen in this run (a restart may report it again; the wallet's log keeps one per channel).
 */
export const breachWatch = (
  emit: (e: NodeEvent) => void,
  log: (level: "warn", message: string) => void,
): ((monitor: ldk.ChannelMonitor) => void) => {
  const told = new Set<string>();
  return (monitor) => {
    const channelId = hex.encode(monitor.channel_id().get_a());
    if (told.has(channelId)) return;
    const { revokedSats, totalSats } = claimsOf(monitor);
    if (revokedSats === 0n) return;
    told.add(channelId);
    log("warn", `channel ${channelId}: the partner published a revoked state; claiming ${totalSats} sats`);
    emit({ type: "revoked_state_seen", channelId, claimableSats: totalSats });
  };
};
