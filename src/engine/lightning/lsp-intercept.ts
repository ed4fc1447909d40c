/**
 * Who may take a payment's money on its way to us, and how the world's LSP node forwards: the wallet claims
 * a payment only when the hop before it kept no more than its policy allows (an LSP's promised opening
 * fee), may hold a payment whose preimage it learns elsewhere, and the LSP side intercepts payments to its
 * SCIDs to open a channel before forwarding them.
 */
import { hex } from "@scure/base";
import type { Channels } from "./channels";
import { apiErrorText, type NodeCore } from "./node-core";
import { NodeError } from "./policy";
import type * as ldk from "lightningdevkit";

export class Interception {
  constructor(
    private readonly core: NodeCore,
    private readonly channels: Channels,
  ) {}

  holds(paymentHash: string, amountMsat: bigint): boolean {
    try {
      return this.core.opts.onUnknownPreimage?.(paymentHash, amountMsat) ?? false;
    } catch (e) {
      this.core.opts.log("error", `held payment ${paymentHash}: ${String(e)}`);
      return false;
    }
  }

  interceptScid(): bigint {
    return this.core.manager.get_intercept_scid();
  }

  forwardIntercepted(interceptId: string, channelId: string, peer: string, amountMsat: bigint): void {
    const c = this.channels.find(channelId);
    const r = this.core.manager.forward_intercepted_htlc(
      hex.decode(interceptId),
      c.get_channel_id(),
      hex.decode(peer),
      amountMsat,
    );
    if (!r.is_ok()) throw new NodeError(apiErrorText((r as ldk.Result_NoneAPIErrorZ_Err).err));
    this.core.schedule();
  }

  failIntercepted(interceptId: string): void {
    this.core.manager.fail_intercepted_htlc(hex.decode(interceptId));
    this.core.schedule();
  }

  claimAllowed(paymentHash: string, amountMsat: bigint, skimmedMsat: bigint): boolean {
    try {
      return this.core.opts.claimPolicy?.(paymentHash, amountMsat, skimmedMsat) ?? skimmedMsat === 0n;
    } catch (e) {
      this.core.opts.log("error", `claim policy ${paymentHash}: ${String(e)}`);
      return false;
    }
  }
}
