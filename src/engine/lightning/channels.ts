/** The node's channels: as the wallet sees them (what is ours, what the reserve holds), opened, closed, abandoned. */
import { hex } from "@scure/base";
import * as ldk from "lightningdevkit";
import { outpointText } from "./chain";
import { userConfig } from "./node-build";
import { apiErrorText, type NodeCore, someU64 } from "./node-core";
import type { ChannelInfo } from "./node-types";
import { NodeError } from "./policy";

export class Channels {
  constructor(private readonly core: NodeCore) {}

  list(): ChannelInfo[] {
    const online = new Set(
      this.core.peerManager.list_peers().map((p) => hex.encode(p.get_counterparty_node_id())),
    );
    const all = this.core.manager.list_channels();
    return all
      .map((c, i) => {
        const txo = c.get_funding_txo();
        const outboundSats = c.get_outbound_capacity_msat() / 1000n;
        const reserve = someU64(c.get_unspendable_punishment_reserve()) ?? 0n;
        // Anything to send means the whole reserve is held; below it, only what we hold of it is ours
        // (asked of the monitors only then: this runs on every tick).
        const heldBack =
          outboundSats > 0n ? reserve : this.ownedSats(all.filter((_, j) => j !== i)) - outboundSats;
        const confirmations = c.get_confirmations();
        const spendDelay = c.get_force_close_spend_delay();
        const peer = hex.encode(c.get_counterparty().get_node_id());
        return {
          channelId: hex.encode(c.get_channel_id().get_a()),
          peer,
          outpoint: outpointText(txo),
          sizeSats: c.get_channel_value_satoshis(),
          outboundSats,
          sendableSats: c.get_next_outbound_htlc_limit_msat() / 1000n,
          reserveSats: heldBack <= 0n ? 0n : heldBack < reserve ? heldBack : reserve,
          inboundSats: c.get_inbound_capacity_msat() / 1000n,
          // The bindings answer booleans as 0/1.
          isUsable: Boolean(c.get_is_usable()),
          isReady: Boolean(c.get_is_channel_ready()),
          isOutbound: Boolean(c.get_is_outbound()),
          confirmations: confirmations instanceof ldk.Option_u32Z_Some ? confirmations.some : null,
          peerOnline: online.has(peer),
          spendDelay: spendDelay instanceof ldk.Option_u16Z_Some ? spendDelay.some : null,
        };
      })
      .sort((a, b) => (a.channelId < b.channelId ? -1 : 1));
  }

  /** Ours across every channel: what we can send plus the reserves that come back on close. */
  balanceSats(): bigint {
    return this.list().reduce((sum, c) => sum + c.outboundSats + (c.isReady ? c.reserveSats : 0n), 0n);
  }

  /**
   * Ours in the open channels other than `ignored`, as their monitors see it: our side of the latest
   * commitment, with the commitment fee we pay as funder (it comes back on a cooperative close).
   */
  private ownedSats(ignored: ldk.ChannelDetails[]): bigint {
    let sum = 0n;
    for (const b of this.core.chainMonitor.get_claimable_balances(ignored)) {
      if (b instanceof ldk.Balance_ClaimableOnChannelClose)
        sum += b.amount_satoshis + b.transaction_fee_satoshis;
    }
    return sum;
  }

  /**
   * Opens a channel of `sats` to a connected peer; the funding comes from `fundChannel`. A public one
   * (`announce`, a routing node's) is announced to the network after six confirmations, with `policy`.
   */
  open(peer: string, sats: bigint, pushMsat = 0n, announce = false, policy?: ForwardingPolicy): string {
    let override: ldk.UserConfig | null = null;
    if (announce || policy) {
      override = userConfig(this.core.opts.role);
      const handshake = override.get_channel_handshake_config();
      handshake.set_announce_for_forwarding(announce);
      override.set_channel_handshake_config(handshake);
      if (policy) override.set_channel_config(channelConfig(override.get_channel_config(), policy));
    }
    const r = this.core.manager.create_channel(hex.decode(peer), sats, pushMsat, 0n, null, override);
    if (!(r instanceof ldk.Result_ChannelIdAPIErrorZ_OK)) {
      throw new NodeError(apiErrorText((r as ldk.Result_ChannelIdAPIErrorZ_Err).err));
    }
    this.core.schedule();
    return hex.encode(r.res.get_a());
  }

  /** What we charge to forward into a channel, and the CLTV delta we ask (our side's channel_update). */
  setPolicy(channelId: string, policy: ForwardingPolicy): void {
    const c = this.find(channelId);
    const r = this.core.manager.update_channel_config(
      c.get_counterparty().get_node_id(),
      [c.get_channel_id()],
      channelConfig(c.get_config() ?? ldk.ChannelConfig.constructor_default(), policy),
    );
    if (!r.is_ok()) throw new NodeError(apiErrorText((r as ldk.Result_NoneAPIErrorZ_Err).err));
    this.core.schedule();
  }

  find(channelId: string): ldk.ChannelDetails {
    const c = this.core.manager
      .list_channels()
      .find((d) => hex.encode(d.get_channel_id().get_a()) === channelId);
    if (!c) throw new NodeError("Channel not found");
    return c;
  }

  /**
   * Closes cooperatively, or broadcasts our latest commitment when `force` (for an offline peer). A
   * cooperative close first waits a moment for the channel to be usable (a payment's last state may still
   * be on its way to storage).
   */
  async close(channelId: string, force = false): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const c = this.find(channelId);
      const id = c.get_channel_id();
      const peer = c.get_counterparty().get_node_id();
      const r = force
        ? this.core.manager.force_close_broadcasting_latest_txn(id, peer, "closed by the owner")
        : this.core.manager.close_channel(id, peer);
      if (r.is_ok()) break;
      const why = apiErrorText((r as ldk.Result_NoneAPIErrorZ_Err).err);
      // A state update still being stored (or a peer reconnecting) holds a close back for a moment.
      if (force || attempt >= 50 || !/monitor update|disconnected/i.test(why)) throw new NodeError(why);
      this.core.schedule();
      await new Promise((r) => setTimeout(r, 100));
    }
    this.core.schedule();
  }

  /** Forgets a channel without broadcasting anything (a funding that never confirmed). */
  abandon(channelId: string): void {
    const c = this.find(channelId);
    const r = this.core.manager.force_close_without_broadcasting_txn(
      c.get_channel_id(),
      c.get_counterparty().get_node_id(),
      "abandoned by the owner",
    );
    if (!r.is_ok()) throw new NodeError(apiErrorText((r as ldk.Result_NoneAPIErrorZ_Err).err));
    this.core.schedule();
  }
}

/** A routing node's terms for forwarding into one of its channels. */
export interface ForwardingPolicy {
  readonly feeBaseMsat: number;
  readonly feeProportionalMillionths: number;
  readonly cltvExpiryDelta: number;
}

const channelConfig = (config: ldk.ChannelConfig, policy: ForwardingPolicy): ldk.ChannelConfig => {
  config.set_forwarding_fee_base_msat(policy.feeBaseMsat);
  config.set_forwarding_fee_proportional_millionths(policy.feeProportionalMillionths);
  config.set_cltv_expiry_delta(policy.cltvExpiryDelta);
  return config;
};
