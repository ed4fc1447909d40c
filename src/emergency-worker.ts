/// <reference lib="webworker" />
import automergeWasm from "@automerge/automerge/automerge.wasm?url";
import { WalletHost } from "./commands/host";
import type { FromWorker, ToWorker } from "./commands/protocol";
import { stateCipher } from "./commands/state-cipher";
import type { WalletConfig } from "./config";
import { initCrdt } from "./crdt/doc";
import { WalletDb, walletDbName } from "./events/db";

/**
 * Emergency mode's worker: started when the wallet's own worker or one of its engines failed to start and
 * the owner opened the emergency kit. It opens the database with no engines, no sync loops and no cached
 * views, so saving the state, importing a file, deleting everything and downloading the logs still work.
 * Its script holds none of the engines' code: what broke the wallet's worker is not in it.
 */
const post = (m: FromWorker) => postMessage(m);

let host: WalletHost | null = null;
const early: Extract<ToWorker, { kind: "command" }>[] = [];

const start = async (config: WalletConfig) => {
  try {
    post({ kind: "stage", stage: "downloading" });
    // Automerge may be what failed: the host opens without it and only edits of the document fail.
    const crdtReady = initCrdt(async () => automergeWasm);
    crdtReady.catch(() => undefined);
    host = await WalletHost.open({
      db: new WalletDb(walletDbName(config.network)),
      config,
      cipher: stateCipher,
      onViews: (views) => post({ kind: "views", views }),
      crdtReady,
      emergency: true,
    });
    post({ kind: "views", views: host.views() });
    post({ kind: "stage", stage: "done" });
    for (const m of early.splice(0)) answer(m);
  } catch (e) {
    post({
      kind: "boot_error",
      message: `Failed to initialize Mutiny: ${e instanceof Error ? e.message : String(e)}`,
    });
  }
};

const answer = (m: Extract<ToWorker, { kind: "command" }>) => {
  if (!host) {
    early.push(m);
    return;
  }
  void host.run(m.command).then((a) => post({ kind: "result", id: m.id, ...a }));
};

self.onmessage = (ev: MessageEvent<ToWorker>) => {
  const m = ev.data;
  if (m.kind === "start") void start(m.config);
  else if (m.kind === "command") answer(m);
  else if (m.kind === "stop")
    void (host?.stop() ?? Promise.resolve()).finally(() => post({ kind: "stopped" }));
};
