/// <reference lib="webworker" />
import automergeWasm from "@automerge/automerge/automerge.wasm?url";
import { WalletHost } from "./commands/host/host";
import { stateCipher } from "./commands/wallet/state-cipher";
import type { WalletConfig } from "./config";
import { initCrdt } from "./crdt/doc";
import { WalletDb, walletDbName } from "./events/db";
import { post, serveWorker } from "./worker-serve";

/**
 * Emergency mode's worker: started when the wallet's own worker or one of its engines failed to start and
 * the owner opened the emergency kit. It opens the database with no engines, no sync loops and no cached
 * views, so saving the state, importing a file, deleting everything and downloading the logs still work.
 * Its script holds none of the engines' code: what broke the wallet's worker is not in it.
 */
serveWorker({
  start: async (config: WalletConfig) => {
    post({ kind: "stage", stage: "downloading" });
    // Automerge may be what failed: the host opens without it and only edits of the document fail.
    const crdtReady = initCrdt(async () => automergeWasm);
    crdtReady.catch(() => undefined);
    const host = await WalletHost.open({
      db: new WalletDb(walletDbName(config.network)),
      config,
      cipher: stateCipher,
      onViews: (views) => post({ kind: "views", views }),
      crdtReady,
      emergency: true,
    });
    post({ kind: "views", views: host.views() });
    post({ kind: "stage", stage: "done" });
    return host;
  },
});
