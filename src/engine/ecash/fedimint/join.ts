/**
 * Joining a federation with the real client: it reaches the invite's guardians, downloads the federation's
 * config and opens its database. Loaded by the join command only (its own chunk, with the client).
 */
import { EcashFailure } from "../port";
import { clientName, type FedimintLoader, JOIN_TIMEOUT_MS, joinClient } from "./clients";
import type { FedimintInvite } from "./invite";
import { type FederationMeta, federationMeta } from "./map";

export const joinFederation = async (
  load: FedimintLoader,
  network: string,
  invite: FedimintInvite,
  timeoutMs = JOIN_TIMEOUT_MS,
): Promise<FederationMeta> => {
  const w = await joinClient(load, clientName(network, invite.federationId), invite.code, timeoutMs);
  try {
    const id = await w.federation.getFederationId();
    if (id !== invite.federationId) throw new Error("another federation answered");
    return federationMeta(await w.federation.getConfig(), invite.federationId);
  } catch {
    throw new EcashFailure({ message: "Invalid Arguments were given", unreachable: false });
  }
};
