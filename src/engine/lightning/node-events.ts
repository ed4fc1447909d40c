/**
 * LDK's events, handled: fund a channel, claim (or refuse, or hold) a payment, report payments, channels
 * and intercepted HTLCs to the wallet through the output commit, keep spendable outputs for sweeping.
 * The handler LDK calls catches everything: an exception escaping into the wasm would abort it.
 */
import { hex } from "@scure/base";
import * as ldk from "lightningdevkit";
import { displayHex, outpointText } from "./chain";
import type { Interception } from "./lsp-intercept";
import { apiErrorText, type NodeCore, random32, someU64 } from "./node-core";
import type { Payments } from "./payments";
import type { Peers } from "./peers";
import type { PaymentFailure } from "./policy";
import type { Sweeps } from "./sweeps";

/** The parts of the node an event may act on. */
export interface EventParts {
  readonly payments: Payments;
  readonly interception: Interception;
  readonly sweeps: Sweeps;
  readonly peers: Peers;
  /** The scorer learnt from a payment path: it is stored soon, so a reload remembers the failure. */
  readonly scorerLearnt: () => void;
}

/** The handler LDK calls with every event of the manager and the chain monitor. */
export const eventHandler = (core: NodeCore, parts: EventParts): ldk.EventHandler =>
  ldk.EventHandler.new_impl({
    handle_event: (event: ldk.Event) => {
      try {
        handleEvent(event, core, parts);
      } catch (e) {
        core.log("error", `event handler: ${String(e)}`);
      }
      return ldk.Result_NoneReplayEventZ.constructor_ok();
    },
  } as ldk.EventHandlerInterface);

const failureOf = (reason: ldk.Option_PaymentFailureReasonZ): PaymentFailure => {
  if (!(reason instanceof ldk.Option_PaymentFailureReasonZ_Some)) return "unknown";
  const R = ldk.PaymentFailureReason;
  switch (reason.some) {
    case R.LDKPaymentFailureReason_RouteNotFound:
      return "route_not_found";
    case R.LDKPaymentFailureReason_RecipientRejected:
      return "recipient_rejected";
    case R.LDKPaymentFailureReason_RetriesExhausted:
      return "retries_exhausted";
    case R.LDKPaymentFailureReason_PaymentExpired:
      return "expired";
    default:
      return "unknown";
  }
};

const handleEvent = (event: ldk.Event, core: NodeCore, parts: EventParts): void => {
  const { opts } = core;
  if (event instanceof ldk.Event_FundingGenerationReady) {
    const tmp = event.temporary_channel_id.clone();
    const peer = event.counterparty_node_id;
    const script = event.output_script;
    const sats = event.channel_value_satoshis;
    void (async () => {
      try {
        const tx = await opts.fundChannel(script, sats);
        const r = core.manager.funding_transaction_generated(tmp, peer, tx);
        if (!r.is_ok()) throw new Error(apiErrorText((r as ldk.Result_NoneAPIErrorZ_Err).err));
      } catch (e) {
        opts.log("error", `channel funding failed: ${String(e)}`);
        core.manager.force_close_without_broadcasting_txn(tmp, peer, "funding failed");
      }
      core.schedule();
    })();
  } else if (event instanceof ldk.Event_PaymentClaimable) {
    const hash = hex.encode(event.payment_hash);
    const preimage = event.purpose.preimage();
    const skimmed = event.counterparty_skimmed_fee_msat;
    const allowed = parts.interception.claimAllowed(hash, event.amount_msat, skimmed);
    if (preimage instanceof ldk.Option_ThirtyTwoBytesZ_Some && allowed) {
      core.manager.claim_funds(preimage.some);
    } else if (preimage instanceof ldk.Option_ThirtyTwoBytesZ_Some) {
      opts.log("warn", `payment ${hash} refused: ${skimmed} msat kept by the forwarding node`);
      core.manager.fail_htlc_backwards(event.payment_hash);
      core.emit({
        type: "payment_refused",
        paymentHash: hash,
        amountMsat: event.amount_msat,
        skimmedMsat: skimmed,
      });
    } else if (
      !(preimage instanceof ldk.Option_ThirtyTwoBytesZ_Some) &&
      parts.interception.holds(hash, event.amount_msat)
    ) {
      opts.log("info", `payment ${hash} held until its preimage is known`);
    } else {
      opts.log("warn", `payment ${hash} not claimed`);
      core.manager.fail_htlc_backwards(event.payment_hash);
    }
  } else if (event instanceof ldk.Event_PaymentClaimed) {
    core.emit({
      type: "payment_received",
      paymentHash: hex.encode(event.payment_hash),
      amountMsat: event.amount_msat,
    });
  } else if (event instanceof ldk.Event_PaymentSent) {
    const id =
      event.payment_id instanceof ldk.Option_ThirtyTwoBytesZ_Some ? hex.encode(event.payment_id.some) : "";
    const sent = {
      paymentHash: hex.encode(event.payment_hash),
      preimage: hex.encode(event.payment_preimage),
      feeMsat: someU64(event.fee_paid_msat) ?? 0n,
    };
    core.emit({ type: "payment_sent", paymentId: id, ...sent });
    parts.payments.settle(id, { status: "succeeded", ...sent });
  } else if (event instanceof ldk.Event_PaymentFailed) {
    const id = hex.encode(event.payment_id);
    const paymentHash =
      event.payment_hash instanceof ldk.Option_ThirtyTwoBytesZ_Some
        ? hex.encode(event.payment_hash.some)
        : null;
    const reason = failureOf(event.reason);
    core.emit({ type: "payment_failed", paymentId: id, paymentHash, reason });
    parts.payments.settle(id, { status: "failed", paymentHash, reason });
  } else if (event instanceof ldk.Event_PaymentPathFailed) {
    core.routing.pathFailed(event);
    parts.scorerLearnt();
  } else if (event instanceof ldk.Event_PaymentPathSuccessful) {
    core.routing.pathSucceeded(event.path);
    parts.scorerLearnt();
    core.emit({
      type: "payment_path_succeeded",
      paymentId: hex.encode(event.payment_id),
      hops: event.path.get_hops().length,
    });
  } else if (event instanceof ldk.Event_PendingHTLCsForwardable) {
    const ms = Math.min(Number(event.time_forwardable), 1000);
    setTimeout(() => {
      core.guard("forward", () => core.manager.process_pending_htlc_forwards());
      core.schedule();
    }, ms);
  } else if (event instanceof ldk.Event_ChannelPending) {
    const txo = event.funding_txo;
    core.emit({
      type: "channel_pending",
      channelId: hex.encode(event.channel_id.get_a()),
      formerTemporaryId: event.former_temporary_channel_id
        ? hex.encode(event.former_temporary_channel_id.get_a())
        : null,
      peer: hex.encode(event.counterparty_node_id),
      fundingTxid: displayHex(txo.get_txid()),
      outpoint: `${displayHex(txo.get_txid())}:${txo.get_index()}`,
    });
  } else if (event instanceof ldk.Event_ChannelReady) {
    core.emit({
      type: "channel_ready",
      channelId: hex.encode(event.channel_id.get_a()),
      peer: hex.encode(event.counterparty_node_id),
    });
  } else if (event instanceof ldk.Event_ChannelClosed) {
    const txo = event.channel_funding_txo;
    core.emit({
      type: "channel_closed",
      channelId: hex.encode(event.channel_id.get_a()),
      peer: hex.encode(event.counterparty_node_id),
      reason: event.reason.to_str(),
      capacitySats: someU64(event.channel_capacity_sats),
      outpoint: outpointText(txo),
    });
  } else if (event instanceof ldk.Event_OpenChannelRequest) {
    const peer = hex.encode(event.counterparty_node_id);
    const userId = BigInt(`0x${hex.encode(random32().slice(0, 8))}`);
    const zeroConfPeer = opts.trustedZeroConfPeer?.() ?? null;
    const r =
      zeroConfPeer === peer
        ? core.manager.accept_inbound_channel_from_trusted_peer_0conf(
            event.temporary_channel_id,
            event.counterparty_node_id,
            userId,
          )
        : core.manager.accept_inbound_channel(event.temporary_channel_id, event.counterparty_node_id, userId);
    if (!r.is_ok())
      opts.log(
        "warn",
        `inbound channel from ${peer} refused: ${apiErrorText((r as ldk.Result_NoneAPIErrorZ_Err).err)}`,
      );
  } else if (event instanceof ldk.Event_SpendableOutputs) {
    const descriptors = event.outputs.map((d) => d.write());
    const channel =
      event.channel_id instanceof ldk.ChannelId ? hex.encode(event.channel_id.get_a()) : "unknown";
    parts.sweeps.keep(channel, descriptors);
  } else if (event instanceof ldk.Event_HTLCIntercepted) {
    core.emit({
      type: "htlc_intercepted",
      interceptId: hex.encode(event.intercept_id),
      scid: event.requested_next_hop_scid,
      paymentHash: hex.encode(event.payment_hash),
      inboundMsat: event.inbound_amount_msat,
      expectedOutboundMsat: event.expected_outbound_amount_msat,
    });
  } else if (event instanceof ldk.Event_ConnectionNeeded) {
    // LDK needs a peer it is not connected to (a channel message waiting): the supervisor dials now.
    parts.peers.dropped();
  }
};
