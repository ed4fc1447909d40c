/**
 * Plus sold by the services against the local world: the operator's wallet (the world's node over
 * wallet-connect, harness/operator-wallet.ts) makes the subscribe invoice, an outside payer pays it, and the
 * member is active (and may reserve a lightning address) once the operator's wallet says it was paid. Once the
 * period ends, one of two processes on the database charges the renewal through the member's own connection;
 * a member's wallet that answers the charge as paid without paying renews nothing.
 */
import { hex } from "@scure/base";
import { getToken } from "nostr-tools/nip98";
import { finalizeEvent, generateSecretKey } from "nostr-tools/pure";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { postJson } from "../../harness/http";
import { type OperatorWallet, startOperatorWallet } from "../../harness/operator-wallet";
import { PERIOD_S } from "./terms";
import { type Harness, startHarness } from "../../harness/world";
import type { RunningServices } from "../app";
import { startTestServices } from "../testing/services";
import { startServicesPlus } from "./plus";

let world: Harness;
let services: RunningServices;
let operatorNwc: string;
let memberWallet: OperatorWallet | undefined;
let lyingWallet: OperatorWallet | undefined;

beforeAll(async () => {
  world = await startHarness({ port: 0 });
  const operator = (await (await fetch(`${world.esploraUrl}/ln/operator-nwc`)).json()) as { uri: string };
  operatorNwc = operator.uri;
  services = await startTestServices({
    ESPLORA_URL: world.esploraUrl,
    RELAYS: world.nostr.relayUrl,
    HERMES_SECRET: "44".repeat(32),
    PLUS_NWC: operator.uri,
  });
}, 180_000);
afterAll(async () => {
  memberWallet?.stop();
  lyingWallet?.stop();
  await services?.stop();
  await world?.stop();
}, 60_000);

/** A NIP-98 signed request of `key` to the services. */
const signed = async (key: Uint8Array, path: string, method: "get" | "post", body?: unknown) => {
  const url = `${services.url}${path}`;
  const auth = await getToken(url, method, (e) => finalizeEvent(e, key), true);
  return fetch(url, {
    method: method.toUpperCase(),
    headers: { authorization: auth, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
};

/** A member's wallet-connect connection: its client secret is the member's key. */
const nwcOf = (key: Uint8Array) =>
  `nostr+walletconnect://${"ab".repeat(32)}?relay=${encodeURIComponent(world.nostr.relayUrl)}&secret=${hex.encode(key)}`;

describe("Plus sold by the services", () => {
  test("a member joins by paying the operator's invoice, then may reserve a lightning address", async () => {
    expect(await (await fetch(`${services.url}/plus/plans`)).json()).toEqual([{ id: 1, amount_sat: 5_000 }]);
    const member = generateSecretKey();
    const stranger = generateSecretKey();
    // The connection must be the signer's own.
    const wrong = await signed(member, "/plus/subscribe", "post", { plan_id: 1, nwc: nwcOf(stranger) });
    expect(wrong.status).toBe(403);
    const subscribed = await signed(member, "/plus/subscribe", "post", { plan_id: 1, nwc: nwcOf(member) });
    expect(subscribed.status).toBe(200);
    const { invoice } = (await subscribed.json()) as { invoice: string };
    expect(invoice).toMatch(/^lnbcrt50u1/);
    const before = await signed(member, "/plus/subscription", "get");
    expect(await before.json()).toEqual({ plan_id: null, timestamp: null, active: false });
    // Not a member yet: no name.
    expect((await signed(member, "/hermes/names", "post", { name: `n${Date.now()}` })).status).toBe(403);

    expect((await postJson(world.esploraUrl, "/ln/pay", { bolt11: invoice })).status).toBe("succeeded");
    const paidAt = Math.floor(Date.now() / 1000);
    const after = (await (await signed(member, "/plus/subscription", "get")).json()) as {
      plan_id: number;
      timestamp: number;
      active: boolean;
    };
    expect(after.plan_id).toBe(1);
    expect(after.active).toBe(true);
    expect(after.timestamp).toBeGreaterThanOrEqual(paidAt - 60 + PERIOD_S);
    expect(after.timestamp).toBeLessThanOrEqual(paidAt + 60 + PERIOD_S);
    // Asked again, the paid invoice counts once.
    expect(await (await signed(member, "/plus/subscription", "get")).json()).toEqual(after);
    const name = `plus${Date.now().toString(36)}`;
    const reserved = await signed(member, "/hermes/names", "post", { name });
    expect(reserved.status).toBe(200);
    expect(await (await signed(stranger, "/plus/subscription", "get")).json()).toEqual({
      plan_id: null,
      timestamp: null,
      active: false,
    });
  }, 120_000);

  /**
   * A member subscribed through `wallet`'s connection, its client key the member's, its first period paid
   * for real (by someone outside): the member's key and the period's start.
   */
  const subscribedThrough = async (wallet: { uri: string }) => {
    const member = hex.decode(
      new URL(wallet.uri.replace(/^nostr\+walletconnect:/, "http:")).searchParams.get("secret")!,
    );
    const subscribed = await signed(member, "/plus/subscribe", "post", { plan_id: 1, nwc: wallet.uri });
    const { invoice } = (await subscribed.json()) as { invoice: string };
    expect((await postJson(world.esploraUrl, "/ln/pay", { bolt11: invoice })).status).toBe("succeeded");
    const first = (await (await signed(member, "/plus/subscription", "get")).json()) as { timestamp: number };
    return { member, first };
  };

  /** A day past a member's period, within the grace. */
  const later = () => Math.floor(Date.now() / 1000) + PERIOD_S + 24 * 3600;
  const renewing = () =>
    startServicesPlus(
      services.db,
      { operatorNwc, plans: [{ id: 1, amount_sat: 5_000 }] },
      { now: later, renewEveryMs: 3_600_000 },
    );

  test("once the period ends, one of two processes charges the renewal through the member's connection", async () => {
    // The member's own wallet, over wallet-connect: the world's paying node; its client key is the member's.
    memberWallet = await startOperatorWallet(await world.payer(), world.nostr.relayUrl, { pays: true });
    const { member, first } = await subscribedThrough(memberWallet);

    // Two more processes on the same database, a day past the member's period (within the grace).
    const one = renewing();
    const two = renewing();
    try {
      const charged = await Promise.all([one.renewDue(), two.renewDue()]);
      expect(charged[0] + charged[1]).toBe(1);
      const renewed = (await (await signed(member, "/plus/subscription", "get")).json()) as {
        timestamp: number;
        active: boolean;
      };
      expect(renewed.timestamp).toBe(first.timestamp + PERIOD_S);
      expect(renewed.active).toBe(true);
      // Paid: nothing is due any more.
      expect(await one.renewDue()).toBe(0);
    } finally {
      one.stop();
      two.stop();
    }
  }, 120_000);

  test("a renewal the member's wallet claims to have paid, and did not, renews nothing", async () => {
    // A member's wallet-connect service that answers every payment as made, with a preimage of its own.
    lyingWallet = await startOperatorWallet(await world.payer(), world.nostr.relayUrl, {
      pays: "claims-only",
    });
    // The first period is paid for real (by someone outside).
    const { member, first } = await subscribedThrough(lyingWallet);

    // A day past the period, within the grace: the charge is claimed, answered "paid", and not paid.
    const one = renewing();
    try {
      expect(await one.renewDue()).toBe(0);
      const after = (await (await signed(member, "/plus/subscription", "get")).json()) as {
        timestamp: number;
      };
      expect(after.timestamp).toBe(first.timestamp);
    } finally {
      one.stop();
    }
  }, 120_000);

  test("a name another member holds is refused, and the one refused keeps its own name", async () => {
    /** A member: subscribed, its invoice paid by someone outside. */
    const join = async () => {
      const key = generateSecretKey();
      const r = await signed(key, "/plus/subscribe", "post", { plan_id: 1, nwc: nwcOf(key) });
      const { invoice } = (await r.json()) as { invoice: string };
      expect((await postJson(world.esploraUrl, "/ln/pay", { bolt11: invoice })).status).toBe("succeeded");
      expect(await (await signed(key, "/plus/subscription", "get")).json()).toMatchObject({ active: true });
      return key;
    };
    const [alice, bob] = [await join(), await join()];
    const suffix = Date.now().toString(36);
    expect((await signed(alice, "/hermes/names", "post", { name: `alice${suffix}` })).status).toBe(200);
    expect((await signed(bob, "/hermes/names", "post", { name: `bob${suffix}` })).status).toBe(200);
    for (const name of [`alice${suffix}`, `Alice${suffix}`, ` alice${suffix}`, `alice${suffix}%00`]) {
      const taken = await signed(bob, "/hermes/names", "post", { name });
      expect(taken.status, name).toBeGreaterThanOrEqual(400);
    }
    const refused = await signed(bob, "/hermes/names", "post", { name: `alice${suffix}` });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toBe("Name already taken");
    // The refused reservation released nothing: each member keeps its own name.
    expect(await (await signed(bob, "/hermes/names/mine", "get")).json()).toMatchObject({
      name: `bob${suffix}`,
    });
    expect(await (await signed(alice, "/hermes/names/mine", "get")).json()).toMatchObject({
      name: `alice${suffix}`,
    });
  }, 120_000);
});
