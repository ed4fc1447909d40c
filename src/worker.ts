/// <reference lib="webworker" />
import automergeWasm from "@automerge/automerge/automerge.wasm?url";
import ldkWasm from "lightningdevkit/liblightningjs.wasm?url";
import { WalletHost } from "./commands/host/host";
import type { AllViews } from "./projections/live";
import type { WalletConfig } from "./config";
import { initCrdt } from "./crdt/doc";
import { onDemand } from "./crdt/on-demand";
import { WalletDb, walletDbName } from "./events/db";
import { readViewsSnapshot, saveViewsSnapshot } from "./events/snapshot";
import { stateCipher } from "./commands/wallet/state-cipher";
import type { Platform } from "./engine/engine";
import type { FedimintClientClass } from "./engine/ecash/fedimint/wasm";
import { lightningEngine } from "./engine/lightning/engine";
import { loadLdkStreaming } from "./engine/lightning/ldk-wasm";
import { nostrEngine } from "./engine/nostr/engine";
import { nwcEngine } from "./engine/nwc/engine";
import { onchainEngine } from "./engine/onchain/engine";
import { ecashEngine } from "./engine/ecash/engine";
import { startWalletLoops, type WalletLoops } from "./commands/host/loops";
import { post, serveWorker } from "./worker-serve";

/**
 * The wallet's worker: one per tab that holds the wallet's lock. It wires the log, the folds and the
 * engines, then answers commands and pushes views whenever they change.
 */
let host: WalletHost | null = null;
let loops: WalletLoops | null = null;

// Views are pushed at most once a frame: a sync that appends many events sends one update. Pending
// views go out before any command's answer, so a screen that awaited a command sees its effect.
// Everything posted so far is kept, so the display snapshot is saved without deriving the views again.
let pending: Partial<AllViews> | null = null;
let shown: Partial<AllViews> = {};
const showViews = (views: Partial<AllViews>) => {
  post({ kind: "views", views });
  shown = { ...shown, ...views };
  if (host && db) void saveViewsSnapshot(db, shown as AllViews).catch(() => undefined);
};
const flushViews = () => {
  const v = pending;
  pending = null;
  if (v) showViews(v);
};
const pushViews = (views: Partial<AllViews>) => {
  const first = pending === null;
  pending = { ...(pending ?? {}), ...views };
  if (first) setTimeout(flushViews, 16);
};

let db: WalletDb | null = null;

// Automerge's wasm (1.15 MB gzip) is fetched when a wallet that has owner edits opens (beside the log's
// read), when a command first needs it, or once the wallet has settled: a new wallet reaches home without it.
const crdtReady = onDemand(() => initCrdt(async () => automergeWasm));
const CRDT_AFTER_READY_MS = 2000;

/**
 * LDK's wasm (12 MB, from the service worker's cache after the first visit) and its bindings, loaded and
 * initialised once.
 */
let ldkLoaded: Promise<void> | null = null;
const loadLdk = () => {
  ldkLoaded ??= loadLdkStreaming(ldkWasm, fetch(ldkWasm), () => import("lightningdevkit"));
  return ldkLoaded;
};

/**
 * Fedimint's client (8 MB of wasm and its glue), loaded and instantiated once, only when the wallet joins
 * or uses a federation.
 */
let fedimintLoaded: Promise<FedimintClientClass> | null = null;
const loadFedimint = () => {
  fedimintLoaded ??= Promise.all([
    import("./engine/ecash/fedimint/wasm"),
    import("@fedimint/fedimint-client-wasm-bundler/fedimint_client_wasm_bg.js"),
    import("@fedimint/fedimint-client-wasm-bundler/fedimint_client_wasm_bg.wasm?url"),
  ]).then(([{ instantiateFedimint }, glue, wasm]) => instantiateFedimint(glue, fetch(wasm.default)));
  fedimintLoaded.catch(() => {
    fedimintLoaded = null;
  });
  return fedimintLoaded;
};

/** Home is drawn and usable: what waits for it (the network graph's first sync) may begin. */
let markHomeShown = () => {};
const homeShown = new Promise<void>((r) => {
  markHomeShown = r;
});

/**
 * A wallet this page has no views of yet (a new one, or one made just now) starts its lightning node once
 * home is on screen, so none of LDK's code and 12 MB of wasm comes before the new wallet's home; at the
 * latest a few seconds after the node was asked for, for a page that is not on home.
 */
const LDK_AFTER_NEW_WALLET_MS = 3000;
let newWallet = false;
const ldkAfter = (): Promise<void> =>
  newWallet
    ? Promise.race([homeShown, new Promise<void>((r) => setTimeout(r, LDK_AFTER_NEW_WALLET_MS))])
    : Promise.resolve();

/** The engines in the browser's worker. */
const platform: Platform = {
  fetch: (i, init) => fetch(i, init),
  makeSocket: (url) => new WebSocket(url) as never,
  loadLdk,
  ldkAfter,
  loadFedimint,
  homeShown: () => homeShown,
  // The device lock's release, for the page to send as it closes (this worker ends with it).
  lockRelease: (request) => post({ kind: "lock_release", request }),
};

const start = async (config: WalletConfig): Promise<WalletHost> => {
  db = new WalletDb(walletDbName(config.network));
  // The last views shown, so home appears at once; the fold of the log replaces them moments later.
  const cached = await readViewsSnapshot(db).catch(() => null);
  if (cached) post({ kind: "views", views: cached });
  post({ kind: "stage", stage: "downloading" });
  // A wallet that ran lightning last time will again: its node's wasm loads beside the fold. A new
  // wallet or safe mode loads it only if and when the node starts.
  // Started beside the log's fold, so the node is ready sooner; home never waits for it.
  if (cached?.wallet?.exists && !cached.wallet.safe_mode)
    void Promise.all([loadLdk(), import("./engine/lightning/live")]).catch(() => undefined);
  newWallet = !cached?.wallet?.exists;
  if (cached?.wallet?.exists) crdtReady.start().catch(() => undefined);
  post({ kind: "stage", stage: "checking_for_existing_wallet" });
  const ready = () => {
    if (!host || loops) return;
    loops = startWalletLoops(host, config);
    post({ kind: "stage", stage: "done" });
    setTimeout(() => crdtReady.start().catch(() => undefined), CRDT_AFTER_READY_MS);
  };
  host = await WalletHost.open({
    db,
    config,
    cipher: stateCipher,
    onViews: pushViews,
    onUnlocked: ready,
    engines: { list: [onchainEngine, lightningEngine, nostrEngine, nwcEngine, ecashEngine], platform },
    crdtReady,
  });
  showViews(host.views());
  post({ kind: "stage", stage: "setup" });
  // With a password, setup waits for it: the decrypt dialog sends Unlock, and the engines start then.
  if (!host.locked) ready();
  return host;
};

serveWorker({
  start,
  beforeAnswer: flushViews,
  answered: (command, a) => {
    if (a.ok && (command._tag === "SetFiat" || command._tag === "ImportState")) loops?.refreshPrice();
  },
  // The node writes its state once more before the worker reports it stopped.
  stopping: () => loops?.stop(),
  other: (m) => {
    if (m.kind === "home_shown") markHomeShown();
    if (m.kind === "wake") host?.wake();
  },
});
