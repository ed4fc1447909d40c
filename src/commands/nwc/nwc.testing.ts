/**
 * A wallet with a usable channel to the local world's node and its wallet-connect service running, as the
 * wallet-connect, Plus and lightning-address tests and benchmarks need it: the real engines in Node, the
 * world's relay for wallet-connect (and, with `ecashAndNostr`, the world's relay and mints for nostr and
 * ecash too). The host can be stopped and opened again on the same log (a closed tab, then the next start).
 */
import { hex } from "@scure/base";
import { AbstractSimplePool } from "nostr-tools/abstract-pool";
import { v2 as nip44 } from "nostr-tools/nip44";
import { finalizeEvent, getPublicKey, verifyEvent } from "nostr-tools/pure";
import WebSocket from "ws";
import { until } from "../../../harness/until";
import { type Harness, startHarness } from "../../../harness/world";
import type { WalletConfig } from "../../config";
import { initCrdtNode } from "../../crdt/node";
import type { AnyEngine } from "../../engine/engine";
import { ecashEngine } from "../../engine/ecash/engine";
import { lightningEngine } from "../../engine/lightning/engine";
import { nostrEngine } from "../../engine/nostr/engine";
import { nwcEngine } from "../../engine/nwc/engine";
import { onchainEngine } from "../../engine/onchain/engine";
import type { WalletDb } from "../../events/db";
import { readEvents } from "../../events/log";
import type { AllViews } from "../../projections/live";
import { WalletHost } from "../host/host";
import { nodePlatform, ok, testCipher, worldLspConfig } from "../host/host.testing";

// Node 20 has no global WebSocket; the SDK's relay connections in the tests that use these use it.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

/** The wallet's settings for the world `h`: its Esplora, proxy, LSP and relay (nostr on the same relay). */
export const worldConfig = (h: Harness): WalletConfig => ({
  ...worldLspConfig(h),
  nwcRelay: h.nostr.relayUrl,
  nostr: { relays: [h.nostr.relayUrl], primal: "", blossom: "" },
});

export interface WorldWallet {
  /** The host now running (a new one after `reopen`). */
  readonly host: () => WalletHost;
  /** The newest views pushed (merged), as the screens would have them. */
  readonly views: () => Partial<AllViews>;
  /** Mines `n` blocks, lets the world's node and the wallet see them. */
  readonly mine: (n: number) => Promise<void>;
  /** Stops the host (the tab closes); the log stays. */
  readonly close: () => Promise<void>;
  /** Opens a host on the same log again (the next start). */
  readonly reopen: () => Promise<void>;
}

export interface WorldWalletOptions {
  /** Also run the nostr and ecash engines (as the browser's worker does). */
  readonly ecashAndNostr?: boolean;
}

/** Opens a host on `db` against the world (the wallet is not created: `CreateWallet` is the caller's). */
export const openWorldWallet = async (
  h: Harness,
  db: WalletDb,
  opts: WorldWalletOptions = {},
): Promise<WorldWallet> => {
  const config = worldConfig(h);
  const list: AnyEngine[] = opts.ecashAndNostr
    ? [onchainEngine, lightningEngine, nostrEngine, nwcEngine, ecashEngine]
    : [onchainEngine, lightningEngine, nwcEngine];
  let views: Partial<AllViews> = {};
  const open = async () => {
    const host = await WalletHost.open({
      db,
      config,
      cipher: testCipher,
      onViews: (v) => {
        views = { ...views, ...v };
      },
      engines: { list, platform: nodePlatform },
    });
    views = host.views();
    return host;
  };
  let host: WalletHost | null = await open();
  const current = () => {
    if (!host) throw new Error("The wallet is closed");
    return host;
  };
  return {
    host: current,
    views: () => views,
    mine: async (n) => {
      await h.mine(n);
      await h.lightning.node.sync();
      ok(await current().run({ _tag: "SyncOnchain" }));
    },
    close: async () => {
      await host?.stop();
      host = null;
    },
    reopen: async () => {
      await host?.stop();
      host = await open();
    },
  };
};

export interface ChannelOptions {
  readonly channelSats?: bigint;
  /** Paid to the world's node once the channel is usable, so the node can pay the wallet's invoices too. */
  readonly pushSats?: bigint;
}

/**
 * Funds the (created) wallet on-chain and opens a channel of `channelSats` to the world's node; resolves
 * once the channel is usable.
 */
export const openChannel = async (h: Harness, w: WorldWallet, opts: ChannelOptions = {}): Promise<void> => {
  const host = w.host();
  await host.whenLightning();
  const { address } = ok<{ address: string }>(await host.run({ _tag: "GetNewAddress", labels: [] }));
  await h.faucet(address, 300_000n);
  await w.mine(1);
  ok(await host.run({ _tag: "OpenChannel", amountSats: opts.channelSats ?? 200_000n }));
  await until(
    "channel open",
    () => w.views().activity?.items.some((i) => i.kind === "ChannelOpen") ?? false,
    60_000,
  );
  const openItem = host.views().activity.items.find((i) => i.kind === "ChannelOpen")!;
  const details = ok<{ txid: string }>(await host.run({ _tag: "GetChannelEvent", id: openItem.id }));
  await h.waitForTx(details.txid);
  await w.mine(6);
  await until("usable channel", () => w.views().channels?.some((c) => c.is_usable) ?? false, 60_000);
  if (opts.pushSats) {
    const { bolt11 } = h.lightning.node.createInvoice(opts.pushSats * 1000n, "liquidity");
    ok(await host.run({ _tag: "PayInvoice", bolt11, amountSats: opts.pushSats }));
  }
};

/**
 * A fresh world and a new wallet on `db` whose usable channel pushed 50,000 sats to the world's node, so that
 * either side can pay the other: what the wallet-connect tests start from.
 */
export const payingWalletWorld = async (db: WalletDb): Promise<{ h: Harness; w: WorldWallet }> => {
  await initCrdtNode();
  const h = await startHarness({ port: 0 });
  return { h, w: await walletWithChannel(h, db, { pushSats: 50_000n }) };
};

/** A new wallet on `db` with a usable channel to the world's node (see `openChannel`). */
export const walletWithChannel = async (
  h: Harness,
  db: WalletDb,
  opts: WorldWalletOptions & ChannelOptions = {},
): Promise<WorldWallet> => {
  const w = await openWorldWallet(h, db, opts);
  ok(await w.host().run({ _tag: "CreateWallet" }));
  await openChannel(h, w, opts);
  return w;
};

/** Creates a connection the owner made, paying on its own up to `budgetSats` a day; its index. */
export const createConnection = async (host: WalletHost, name: string, budgetSats: bigint): Promise<number> =>
  ok<{ index: number }>(
    await host.run({ _tag: "CreateNwcProfile", name, budgetSats, period: 0, requireApproval: false }),
  ).index;

/** The wallet-connect URI of connection `index`, once the wallet's service runs. */
export const nwcUri = async (host: WalletHost, index: number): Promise<string> => {
  await until("the wallet-connect service", async () => (await host.run({ _tag: "GetNwcUri", index })).ok);
  return ok<{ uri: string }>(await host.run({ _tag: "GetNwcUri", index })).uri;
};

/** Joins Plus plan `planId` at the world's membership service: the subscription connection, then its invoice paid. */
export const joinPlus = async (h: Harness, host: WalletHost, planId = 1): Promise<void> => {
  const service = h.esploraUrl;
  ok(await host.run({ _tag: "PreparePlus", host: service, planId }));
  const uri = await nwcUri(host, 0);
  const { bolt11, amountSats } = ok<{ bolt11: string; amountSats: bigint }>(
    await host.run({ _tag: "SubscribePlus", host: service, planId, nwc: uri }),
  );
  ok(await host.run({ _tag: "PayInvoice", bolt11, amountSats }));
};

/** How many payments the log of `db` started to the invoice of `hash` (a paid-once rule reads 1). */
export const paymentsStartedTo = async (db: WalletDb, hash: string): Promise<number> =>
  (await readEvents(db)).filter((e) => e.type === "ln.payment_started" && e.payload.payment_hash === hash)
    .length;

/** A relay pool as an app's own nostr client (nostr-tools in Node) opens one. */
export const appPool = (): AbstractSimplePool =>
  new AbstractSimplePool({
    verifyEvent,
    websocketImplementation: WebSocket as never,
    maxWaitForConnection: 10_000,
  });

/**
 * A pay_invoice request the app of `uri` signs itself, as any app could craft one (NIP-47 over NIP-44), dated
 * `createdAt` (unix seconds; now unless given) and expiring at `expiresAt` when given. From the moment it is
 * made, `answers` collects the service's answers to it on `relay`, decrypted.
 */
export const craftedPayment = (
  pool: AbstractSimplePool,
  relay: string,
  uri: string,
  bolt11: string,
  when: { readonly createdAt?: number; readonly expiresAt?: number } = {},
) => {
  const url = new URL(uri.replace("nostr+walletconnect://", "http://"));
  const service = url.host;
  const secret = hex.decode(url.searchParams.get("secret") ?? "");
  const key = nip44.utils.getConversationKey(secret, service);
  const event = finalizeEvent(
    {
      kind: 23194,
      created_at: when.createdAt ?? Math.floor(Date.now() / 1000),
      tags: [
        ["p", service],
        ["encryption", "nip44_v2"],
        ...(when.expiresAt === undefined ? [] : [["expiration", String(when.expiresAt)]]),
      ],
      content: nip44.encrypt(JSON.stringify({ method: "pay_invoice", params: { invoice: bolt11 } }), key),
    },
    secret,
  );
  const answers: string[] = [];
  const sub = pool.subscribe(
    [relay],
    { kinds: [23195], "#e": [event.id], "#p": [getPublicKey(secret)] },
    { onevent: (e) => answers.push(nip44.decrypt(e.content, key)) },
  );
  return {
    /** Publishes the request to the relay (again, for a second delivery). */
    send: () => Promise.any(pool.publish([relay], event)),
    answers,
    close: () => sub.close(),
  };
};
