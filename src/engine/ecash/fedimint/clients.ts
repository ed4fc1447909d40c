/**
 * The open Fedimint clients of this worker, one per federation (the client's own database, in IndexedDB,
 * is named for the network and the federation). Joining (by the join command, before the ecash engine
 * runs) and the engine share them: a client is never opened twice, and a join still trying to reach its
 * guardians is awaited again rather than started a second time.
 */
import { type FedimintWallet, WalletDirector } from "@fedimint/core";
import { EcashFailure } from "../port";
import { InThreadTransport } from "./transport";
import type { FedimintClientClass } from "./wasm";

export type FedimintLoader = () => Promise<FedimintClientClass>;

export const FEDERATION_CONNECT_FAILED = "Failed to connect to a federation.";

/** How long a join may try to reach the guardians (the client itself retries forever). */
export const JOIN_TIMEOUT_MS = 30_000;

export const clientName = (network: string, federationId: string) =>
  `wallet-fedimint-${network}-${federationId}`;

const opened = new Map<string, Promise<FedimintWallet | null>>();
const joining = new Map<string, Promise<FedimintWallet>>();
/**
 * Databases the client holds open without a client to free (a join still trying, an open that found no
 * federation): its handlers for them are gone, so deleting them under it would raise in this worker.
 */
const held = new Set<string>();

const newWallet = (load: FedimintLoader): Promise<FedimintWallet> =>
  new WalletDirector(new InThreadTransport(load), true).createWallet();

/** The client of a federation joined before (its database exists), or null. */
export const openClient = (load: FedimintLoader, name: string): Promise<FedimintWallet | null> => {
  let p = opened.get(name);
  if (!p) {
    p = (async () => {
      const w = await newWallet(load);
      if (await w.open(name)) return w;
      held.add(name);
      return null;
    })();
    opened.set(name, p);
    p.then(
      (w) => {
        if (!w) opened.delete(name);
      },
      () => opened.delete(name),
    );
  }
  return p;
};

const within = <T>(p: Promise<T>, ms: number): Promise<T> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new EcashFailure({ message: FEDERATION_CONNECT_FAILED, unreachable: true })),
      ms,
    );
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });

/**
 * Joins the federation of `invite` (or opens its client when joined before). The client downloads the
 * federation's config from its guardians; one that cannot be reached within `timeoutMs` fails with the
 * spec's 'Failed to connect to a federation.' (the client may go on trying in the background: a later
 * join awaits that attempt).
 */
export const joinClient = async (
  load: FedimintLoader,
  name: string,
  invite: string,
  timeoutMs = JOIN_TIMEOUT_MS,
): Promise<FedimintWallet> => {
  const existing = await openClient(load, name);
  if (existing) return existing;
  let p = joining.get(name);
  if (!p) {
    const attempt = (async () => {
      const w = await newWallet(load);
      if (!(await w.joinFederation(invite, name)))
        throw new EcashFailure({ message: FEDERATION_CONNECT_FAILED, unreachable: true });
      return w;
    })();
    p = attempt;
    held.add(name);
    joining.set(name, attempt);
    attempt.then(
      (w) => {
        joining.delete(name);
        held.delete(name);
        opened.set(name, Promise.resolve(w));
      },
      () => joining.delete(name),
    );
  }
  return within(p, timeoutMs);
};

/** Frees every open client (the worker stops). */
export const closeClients = async (): Promise<void> => {
  const all = [...opened.values()];
  opened.clear();
  await Promise.all(all.map((p) => p.then((w) => w?.cleanup()).catch(() => undefined)));
};

/**
 * Deletes the databases of this network's federation clients (the owner deleted the wallet): a wallet
 * made later on this device never opens the old one's notes.
 */
export const deleteClientDatabases = async (
  network: string,
  idb: IDBFactory | undefined = globalThis.indexedDB,
): Promise<void> => {
  await closeClients();
  if (typeof idb?.databases !== "function") return;
  const prefix = clientName(network, "");
  for (const d of await idb.databases()) {
    const name = d.name;
    // One this worker's client still holds never joined, so it holds no notes: it is left behind.
    if (!name?.startsWith(prefix) || held.has(name)) continue;
    await new Promise<void>((resolve) => {
      const req = idb.deleteDatabase(name);
      req.onsuccess = () => resolve();
      req.onerror = () => resolve();
      // Still open in another tab or worker: deleted once it closes.
      req.onblocked = () => resolve();
    });
  }
};
