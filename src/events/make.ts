import { EVENT_VERSIONS, type EventPayloads, type EventType, type WalletEvent } from "./types";

/** What a handler returns: an event without the fields the log assigns. */
export type NewEvent = { [K in EventType]: { type: K; payload: EventPayloads[K] } }[EventType];

export const newEvent = <K extends EventType>(type: K, payload: EventPayloads[K]): NewEvent =>
  ({ type, payload }) as NewEvent;

export interface Stamp {
  readonly uuid: () => string;
  readonly now: () => number;
  readonly device: string;
}

/** Gives a handler's new events their id, version, time and device. */
export const stamp = (events: readonly NewEvent[], s: Stamp): WalletEvent[] =>
  events.map(
    (e) =>
      ({
        id: s.uuid(),
        type: e.type,
        v: EVENT_VERSIONS[e.type],
        at: s.now(),
        device: s.device,
        payload: e.payload,
      }) as WalletEvent,
  );
