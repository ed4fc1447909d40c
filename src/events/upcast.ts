import { EVENT_VERSIONS, type EventType, type WalletEvent } from "./types";

/**
 * Turns an event of an older payload version into the current one. Each entry maps a type's version
 * `v` to a function giving version `v + 1`; chains run until the current version. Every event type is at
 * version 1 so far, so there is nothing to convert yet: when a payload changes, its upcaster goes here.
 */
type Upcaster = (payload: Record<string, unknown>) => Record<string, unknown>;
const UPCASTERS: { readonly [K in EventType]?: { readonly [fromVersion: number]: Upcaster } } = {};

export const upcast = (e: WalletEvent): WalletEvent => {
  const current = EVENT_VERSIONS[e.type];
  if (e.v === current) return e;
  let payload = e.payload as unknown as Record<string, unknown>;
  for (let v = e.v; v < current; v++) {
    const step = UPCASTERS[e.type]?.[v];
    if (!step) throw new Error(`No upcaster for ${e.type} version ${v}`);
    payload = step(payload);
  }
  return { ...e, v: current, payload } as WalletEvent;
};
