/**
 * The Fedimint client's answers read into the ecash port's shape. The answers are shaped as
 * `@fedimint/core` 0.1.1 types them (its `LnPayState`, `LnReceiveState`, `LnInternalPayState`,
 * `OutgoingLightningPayment`, `LightningGateway`) and as fedimint's client config carries its meta.
 */
import type { LightningGateway, LnInternalPayState, LnPayState, LnReceiveState } from "@fedimint/core";
import { describe, expect, test } from "vitest";
import {
  chooseGateway,
  federationMeta,
  feeSats,
  gatewayFeeMsat,
  mergeProgress,
  payOutcome,
  paymentOf,
  receiveOutcome,
  satsOfMsats,
} from "./map";

const id = "c8d423964c7ad944d30f57359b6e5b260e211dcfdb945140e28d4df51fd572d2";

describe("a federation's config", () => {
  test("gives its name, welcome message and end date", () => {
    const config = {
      global: {
        api_endpoints: { "0": { url: "wss://a/", name: "a" } },
        meta: {
          federation_name: " Mutinynet ",
          welcome_message: "Hello",
          federation_expiry_timestamp: "2000000000",
        },
      },
      modules: {},
    };
    expect(federationMeta(config, id)).toEqual({
      name: "Mutinynet",
      welcome: "Hello",
      expiresAt: 2_000_000_000,
    });
  });
  test("an unnamed federation is named by its id; an unreadable end date is none; a config without global is refused", () => {
    expect(federationMeta({ global: { meta: { federation_expiry_timestamp: "soon" } } }, id)).toEqual({
      name: "Federation c8d42396",
      welcome: "",
      expiresAt: null,
    });
    expect(federationMeta({ global: {} }, id).name).toBe("Federation c8d42396");
    expect(() => federationMeta({ meta: {} }, id)).toThrow();
    expect(() => federationMeta({ global: { meta: { federation_name: 42 } } }, id)).toThrow();
  });
});

describe("amounts", () => {
  test("a balance in msats is whole sats, rounded down; a fee in msats costs whole sats, rounded up", () => {
    expect(satsOfMsats(10_999_999)).toBe(10_999n);
    expect(satsOfMsats(0)).toBe(0n);
    expect(() => satsOfMsats(-1)).toThrow();
    expect(() => satsOfMsats(1.5)).toThrow();
    expect(() => satsOfMsats("1000")).toThrow();
    expect(feeSats(0n)).toBe(0n);
    expect(feeSats(1n)).toBe(1n);
    expect(feeSats(2_000n)).toBe(2n);
    expect(feeSats(2_001n)).toBe(3n);
  });
});

const gateway = (gateway_id: string, base_msat: number, proportional_millionths: number, vetted: boolean) =>
  ({
    info: {
      gateway_id,
      api: "https://gw/",
      node_pub_key: "02".padEnd(66, "0"),
      federation_index: 0,
      route_hints: [],
      fees: { base_msat, proportional_millionths },
    },
    vetted,
    ttl: { nanos: 0, secs: 600 },
  }) satisfies LightningGateway;

describe("gateways", () => {
  test("a vetted gateway goes first, then the cheapest; its fee is its base plus its share, rounded up", () => {
    const cheap = gateway("cheap", 0, 100, false);
    const vetted = gateway("vetted", 1_000, 5_000, true);
    const vettedCheaper = gateway("vetted-cheaper", 1_000, 1_000, true);
    expect(chooseGateway([cheap, vetted, vettedCheaper], 1_000_000n)?.info.gateway_id).toBe("vetted-cheaper");
    expect(chooseGateway([cheap], 1_000_000n)?.info.gateway_id).toBe("cheap");
    expect(chooseGateway([], 1_000_000n)).toBeNull();
    // 10,000 sats at 1,000 ppm + 1,000 msat base = 11,000 msat = 11 sats.
    const g = chooseGateway([vettedCheaper], 10_000_000n);
    if (!g) throw new Error("no gateway");
    expect(gatewayFeeMsat(g, 10_000_000n)).toBe(11_000n);
    expect(gatewayFeeMsat(g, 1n)).toBe(1_001n);
    expect(() => chooseGateway([{ info: { gateway_id: "x" }, vetted: true }], 1n)).toThrow();
  });
});

describe("payments", () => {
  test("the client's answer to paying names the operation to follow", () => {
    expect(paymentOf({ payment_type: { lightning: "op1" }, contract_id: "c", fee: 2_500 })).toEqual({
      operationId: "op1",
      internal: false,
      feeMsat: 2_500n,
    });
    expect(paymentOf({ payment_type: { internal: "op2" }, contract_id: "c", fee: 0 })).toEqual({
      operationId: "op2",
      internal: true,
      feeMsat: 0n,
    });
    expect(() => paymentOf({ payment_type: {}, fee: 0 })).toThrow();
  });

  test("a payment is paid, failed (its ecash comes back) or still on its way", () => {
    const states: [LnPayState | LnInternalPayState, string][] = [
      ["created", "pending"],
      [{ funded: { block_height: 5 } }, "pending"],
      ["awaiting_change", "pending"],
      [{ waiting_for_refund: { error_reason: "no route" } }, "pending"],
      [{ success: { preimage: "ab" } }, "paid"],
      ["canceled", "failed"],
      [{ refunded: { gateway_error: "no route" } }, "failed"],
      [{ unexpected_error: { error_message: "boom" } }, "failed"],
      ["funding", "pending"],
      [{ preimage: "cd" }, "paid"],
      [{ refund_success: { out_points: [], error: "x" } }, "failed"],
      [{ funding_failed: { error: "x" } }, "failed"],
    ];
    for (const [state, status] of states) expect(payOutcome(state).status).toBe(status);
    expect(payOutcome({ success: { preimage: "ab" } })).toEqual({ status: "paid", preimage: "ab" });
    expect(payOutcome({ preimage: "cd" })).toEqual({ status: "paid", preimage: "cd" });
  });

  test("a receive is claimed (the ecash is here), canceled, or waiting for its payment", () => {
    const states: [LnReceiveState, string][] = [
      ["created", "waiting"],
      [{ waiting_for_payment: { invoice: "lnbc", timeout: 3600 } }, "waiting"],
      ["funded", "waiting"],
      ["awaiting_funds", "waiting"],
      ["claimed", "claimed"],
      [{ canceled: { reason: "expired" } }, "canceled"],
    ];
    for (const [state, outcome] of states) expect(receiveOutcome(state)).toBe(outcome);
    expect(receiveOutcome(null)).toBe("waiting");
  });
});

describe("recovery progress", () => {
  test("each module's progress adds up to the federation's; a module's complete never counts past its total", () => {
    const byModule = new Map<number, { complete: number; total: number }>();
    expect(mergeProgress(byModule, { module_id: 1, progress: { complete: 2, total: 10 } })).toEqual({
      complete: 2,
      total: 10,
    });
    expect(mergeProgress(byModule, { module_id: 3, progress: { complete: 5, total: 4 } })).toEqual({
      complete: 6,
      total: 14,
    });
    expect(mergeProgress(byModule, { module_id: 1, progress: { complete: 10, total: 10 } })).toEqual({
      complete: 14,
      total: 14,
    });
    expect(() => mergeProgress(byModule, { module_id: 1, progress: "half" })).toThrow();
  });
});
