/**
 * Payments: invoices made (plain, or routed through an LSP's intercept SCID), payments sent by invoice or
 * keysend and awaited (answered once the state they come from is durable), held payments claimed or failed
 * back.
 */
import { hex } from "@scure/base";
import * as ldk from "lightningdevkit";
import { encodeInvoice, field, INVOICE_FEATURES, INVOICE_PREFIX, type RouteHintHop } from "./bolt11-encode";
import { type NodeCore, random32, someU64 } from "./node-core";
import type { PaymentResult, SendStart } from "./node-types";
import { NodeError, type PaymentFailure, type Refusal } from "./policy";

export const INVOICE_EXPIRY_SECS = 86_400;

/** How often a payment waiting for its channel's peer has it dialled again (see `whenConnected`). */
export const REDIAL_WHILE_WAITING_MS = 1_000;

/** How long a payment waits for the payments just made to leave the channel's in-flight room. */
export const SETTLE_WAIT_MS = 3_000;

/** What the last hop must leave us to claim a payment safely (LDK's minimum is 18 blocks). */
const MIN_FINAL_CLTV_EXPIRY_DELTA = 24;

export class Payments {
  private readonly waiting = new Map<string, (r: PaymentResult) => void>();

  constructor(private readonly core: NodeCore) {}

  /** Answers every payment still waited for as pending (the node is stopping). */
  stopWaiting(): void {
    for (const [id, w] of this.waiting) w({ status: "pending", paymentHash: id });
    this.waiting.clear();
  }

  /** An invoice; `description` is its text, or the sha256 of a longer one (LNURL-pay's metadata). */
  createInvoice(
    amountMsat: bigint | null,
    description: string | { readonly hash: Uint8Array },
    expirySecs = INVOICE_EXPIRY_SECS,
    paymentHash?: Uint8Array,
  ): { bolt11: string; paymentHash: string } {
    let describe: ldk.Bolt11InvoiceDescription;
    if (typeof description === "string") {
      const desc = ldk.Description.constructor_new(description);
      if (!(desc instanceof ldk.Result_DescriptionCreationErrorZ_OK))
        throw new NodeError("Description too long");
      describe = ldk.Bolt11InvoiceDescription.constructor_direct(desc.res);
    } else {
      describe = ldk.Bolt11InvoiceDescription.constructor_hash(
        ldk.Sha256.constructor_from_bytes(description.hash),
      );
    }
    const r = this.core.manager.create_bolt11_invoice(
      amountMsat === null ? ldk.Option_u64Z.constructor_none() : ldk.Option_u64Z.constructor_some(amountMsat),
      describe,
      ldk.Option_u32Z.constructor_some(expirySecs),
      ldk.Option_u16Z.constructor_none(),
      paymentHash
        ? ldk.Option_ThirtyTwoBytesZ.constructor_some(paymentHash)
        : ldk.Option_ThirtyTwoBytesZ.constructor_none(),
    );
    if (!(r instanceof ldk.Result_Bolt11InvoiceSignOrCreationErrorZ_OK)) {
      throw new NodeError((r as ldk.Result_Bolt11InvoiceSignOrCreationErrorZ_Err).err.to_str());
    }
    return { bolt11: r.res.to_str(), paymentHash: hex.encode(r.res.payment_hash()) };
  }

  /** Since when a peer has not been connected (unix ms), or null when it is (the node's supervisor tells). */
  offlineSince: (pubkey: string) => number | null = () => null;

  /**
   * What the channels hold for a payment, in msat: what can go out now over channels whose peer is
   * connected (`now`), their balance above the reserve (`capacity`, more than `now` by the partner's limits
   * and the commitment fee kept back), and the same for ready channels whose peer is not connected now.
   */
  private funds() {
    const f = { now: 0n, capacity: 0n, offline: 0n, reserves: 0n, peer: null as string | null, most: -1n };
    for (const c of this.core.manager.list_channels()) {
      if (!c.get_is_channel_ready() || shuttingDown(c)) continue;
      const capacity = c.get_outbound_capacity_msat();
      f.reserves += (someU64(c.get_unspendable_punishment_reserve()) ?? 0n) * 1000n;
      if (c.get_is_usable()) {
        f.now += c.get_next_outbound_htlc_limit_msat();
        f.capacity += capacity;
      } else {
        f.offline += capacity;
        if (capacity > f.most) {
          f.most = capacity;
          f.peer = hex.encode(c.get_counterparty().get_node_id());
        }
      }
    }
    return f;
  }

  /**
   * Why a payment of `amountMsat` cannot leave now, or null when it can: the channel holding the funds is
   * waiting for its peer (`peer_offline`, with since when), the partner's limits or the commitment fee cap
   * what one payment can carry now (`in_flight_limit`, with that most), the reserve holds it back, or the
   * balance is not enough. Only the last is "not enough balance".
   */
  refusal(amountMsat: bigint): Refusal | null {
    const f = this.funds();
    if (amountMsat <= f.now) return null;
    if (f.peer !== null && amountMsat <= f.capacity + f.offline) {
      const since = this.offlineSince(f.peer);
      return { reason: "peer_offline", peer: f.peer, ...(since === null ? {} : { offlineSince: since }) };
    }
    if (amountMsat <= f.capacity) return { reason: "in_flight_limit", maxMsat: f.now };
    if (amountMsat <= f.capacity + f.offline + f.reserves) return { reason: "reserve" };
    return { reason: "no_balance" };
  }

  /**
   * Waits (at most `timeoutMs`) while a payment of `amountMsat` is refused only because its channel's peer
   * is connecting (or, for `SETTLE_WAIT_MS`, because payments made a moment ago still hold the channel's
   * in-flight room); resolves as soon as it is not, or the node stops. Meanwhile `redial` is called every
   * `REDIAL_WHILE_WAITING_MS`: a person is waiting, so a peer that comes back (a restarted LSP) is found
   * within a second, not after the supervisor's back-off (up to 5 s).
   */
  async whenConnected(amountMsat: bigint, timeoutMs: number, redial: () => void = () => {}): Promise<void> {
    const end = Date.now() + timeoutMs;
    let redialAt = Date.now() + REDIAL_WHILE_WAITING_MS;
    const settled = Date.now() + SETTLE_WAIT_MS;
    while (!this.core.stopped && Date.now() < end) {
      const reason = this.core.call(() => this.refusal(amountMsat))?.reason;
      if (reason !== "peer_offline" && (reason !== "in_flight_limit" || Date.now() >= settled)) return;
      if (Date.now() >= redialAt) {
        redialAt = Date.now() + REDIAL_WHILE_WAITING_MS;
        redial();
      }
      this.core.schedule();
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private failed(paymentHash: string | null, refusal: Refusal): SendStart {
    return { started: false, result: { status: "failed", paymentHash, ...refusal } };
  }

  private wait(paymentId: string, paymentHash: string): Promise<PaymentResult> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(paymentId);
        resolve({ status: "pending", paymentHash });
      }, this.core.opts.paymentTimeoutMs ?? 60_000);
      this.waiting.set(paymentId, (r) => {
        clearTimeout(timer);
        resolve(r);
      });
      this.core.schedule();
    });
  }

  /**
   * Starts paying a bolt11 invoice. Answers at once: either the payment is on its way (`done` resolves
   * with its final state), or it was refused before anything was sent (`result`).
   */
  sendInvoice(bolt11: string, maxFeeMsat: bigint, amountMsat?: bigint): SendStart {
    const parsed = ldk.Bolt11Invoice.constructor_from_str(bolt11.trim());
    if (!(parsed instanceof ldk.Result_Bolt11InvoiceParseOrSemanticErrorZ_OK))
      throw new NodeError("Invalid invoice");
    const invoice = parsed.res;
    const fixed = someU64(invoice.amount_milli_satoshis());
    const params =
      fixed === null
        ? ldk.UtilMethods.constructor_payment_parameters_from_variable_amount_invoice(
            invoice,
            amountMsat ?? 0n,
          )
        : ldk.UtilMethods.constructor_payment_parameters_from_invoice(invoice);
    if (!(params instanceof ldk.Result_C3Tuple_ThirtyTwoBytesRecipientOnionFieldsRouteParametersZNoneZ_OK)) {
      throw new NodeError("This invoice cannot be paid");
    }
    const hash = params.res.get_a();
    const paymentHash = hex.encode(hash);
    const routeParams = params.res.get_c();
    const problem = this.refusal(routeParams.get_final_value_msat());
    if (problem) return this.failed(paymentHash, problem);
    routeParams.set_max_total_routing_fee_msat(ldk.Option_u64Z.constructor_some(maxFeeMsat));
    const r = this.core.manager.send_payment(
      hash,
      params.res.get_b(),
      hash,
      routeParams,
      ldk.Retry.constructor_attempts(5),
    );
    if (!(r instanceof ldk.Result_NoneRetryableSendFailureZ_OK)) {
      const why = (r as ldk.Result_NoneRetryableSendFailureZ_Err).err;
      const F = ldk.RetryableSendFailure;
      const reason: PaymentFailure =
        why === F.LDKRetryableSendFailure_DuplicatePayment
          ? "duplicate"
          : why === F.LDKRetryableSendFailure_PaymentExpired
            ? "expired"
            : why === F.LDKRetryableSendFailure_RouteNotFound
              ? "route_not_found"
              : "unknown";
      return { started: false, result: { status: "failed", paymentHash, reason } };
    }
    return { started: true, paymentId: paymentHash, paymentHash, done: this.wait(paymentHash, paymentHash) };
  }

  /** Starts a keysend payment; see `sendInvoice`. */
  sendKeysend(pubkey: string, amountMsat: bigint, maxFeeMsat: bigint): SendStart {
    const problem = this.refusal(amountMsat);
    if (problem) return this.failed(null, problem);
    const routeParams = ldk.RouteParameters.constructor_from_payment_params_and_value(
      ldk.PaymentParameters.constructor_for_keysend(hex.decode(pubkey), 40, false),
      amountMsat,
    );
    routeParams.set_max_total_routing_fee_msat(ldk.Option_u64Z.constructor_some(maxFeeMsat));
    const preimage = random32();
    const id = random32();
    const r = this.core.manager.send_spontaneous_payment(
      ldk.Option_ThirtyTwoBytesZ.constructor_some(preimage),
      ldk.RecipientOnionFields.constructor_spontaneous_empty(),
      id,
      routeParams,
      ldk.Retry.constructor_attempts(5),
    );
    if (!(r instanceof ldk.Result_ThirtyTwoBytesRetryableSendFailureZ_OK)) {
      return { started: false, result: { status: "failed", paymentHash: null, reason: "route_not_found" } };
    }
    const paymentHash = hex.encode(r.res);
    return {
      started: true,
      paymentId: hex.encode(id),
      paymentHash,
      done: this.wait(hex.encode(id), paymentHash),
    };
  }

  /** Answers a waiting payment once the state it comes from is durable. */
  settle(paymentId: string, result: PaymentResult): void {
    this.core.commit.hold(() => {
      const w = this.waiting.get(paymentId);
      if (w) {
        this.waiting.delete(paymentId);
        w(result);
      }
    });
  }

  /** Claims a held payment with its preimage (hex), learnt elsewhere. */
  claim(preimage: string): void {
    this.core.manager.claim_funds(hex.decode(preimage));
    this.core.schedule();
  }

  /** Fails a held payment back to its payer. */
  failBack(paymentHash: string): void {
    this.core.manager.fail_htlc_backwards(hex.decode(paymentHash));
    this.core.schedule();
  }

  /** The preimage of an invoice this node made (a service sealing a LUD-10 secret with it). */
  preimageOf(bolt11: string): Uint8Array | null {
    const invoice = ldk.Bolt11Invoice.constructor_from_str(bolt11);
    if (!(invoice instanceof ldk.Result_Bolt11InvoiceParseOrSemanticErrorZ_OK)) return null;
    const r = this.core.manager.get_payment_preimage(
      invoice.res.payment_hash(),
      invoice.res.payment_secret(),
    );
    return r instanceof ldk.Result_ThirtyTwoBytesAPIErrorZ_OK ? r.res : null;
  }

  /**
   * An invoice LDK will claim (its hash and secret come from the manager, for at least `amountMsat`),
   * payable only through `hint`: an LSP's intercept SCID that opens a channel to us as it is paid.
   */
  createInvoiceWithHint(
    amountMsat: bigint,
    description: string,
    expirySecs: number,
    hint: RouteHintHop,
  ): { bolt11: string; paymentHash: string } {
    const r = this.core.manager.create_inbound_payment(
      ldk.Option_u64Z.constructor_some(amountMsat),
      expirySecs,
      ldk.Option_u16Z.constructor_some(MIN_FINAL_CLTV_EXPIRY_DELTA),
    );
    if (!(r instanceof ldk.Result_C2Tuple_ThirtyTwoBytesThirtyTwoBytesZNoneZ_OK))
      throw new NodeError("The invoice could not be made");
    const [hash, secret] = [r.res.get_a(), r.res.get_b()];
    const bolt11 = encodeInvoice({
      prefix: INVOICE_PREFIX[this.core.opts.network],
      amountMsat,
      timestamp: Math.floor((this.core.opts.now ?? Date.now)() / 1000),
      secretKey: this.core.keys.get_node_secret_key(),
      fields: [
        field.paymentHash(hash),
        field.paymentSecret(secret),
        field.description(description),
        field.expiry(expirySecs),
        // As LDK's own invoices: a few blocks more than the node requires, for blocks found meanwhile.
        field.minFinalCltvExpiry(MIN_FINAL_CLTV_EXPIRY_DELTA + 3),
        field.routeHint([hint]),
        field.features(INVOICE_FEATURES),
      ],
    });
    return { bolt11, paymentHash: hex.encode(hash) };
  }
}

/** A channel being closed carries no new payment, whoever's peer is connected. */
const shuttingDown = (c: ldk.ChannelDetails): boolean => {
  const s = c.get_channel_shutdown_state();
  return (
    s instanceof ldk.Option_ChannelShutdownStateZ_Some &&
    s.some !== ldk.ChannelShutdownState.LDKChannelShutdownState_NotShuttingDown
  );
};
