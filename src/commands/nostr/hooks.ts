/**
 * The nostr engine beside the host: what waits in the outbox, what a relay accepted, what all refused, the
 * relays' status on the screens, private messages as they arrive, the outbox sent when something is queued,
 * and the commands that follow a command (`nostrFollowUps`).
 */
import type { EngineHooks } from "../../engine/engine";
import type { NostrEvent } from "../../engine/nostr/event";
import { newEvent } from "../../events/make";
import { pendingEvents, targetRelays } from "../../projections/nostr";
import type { Attachment, HostSide } from "../attached";
import type { Command, ResultOf } from "../command";
import { npubToHex } from "./contact-form";
import { followedKeys } from "../../engine/nostr/follows";
import { crdtProjection } from "../../projections/crdt";
import type { States } from "../../projections";

/**
 * What follows a command in the worker's queue: an import brings the followed people in as contacts
 * (followed), and following or unfollowing a contact publishes the follow list.
 */
export const nostrFollowUps = (command: Command, result: unknown, states: States): Command[] => {
  if (command._tag === "ImportNsec") {
    const { contacts } = result as ResultOf<"ImportNsec">;
    // All of them in one command: one change of the owner's document, followed already (they come from the list).
    return contacts.length > 0 ? [{ _tag: "ImportContacts", contacts }] : [];
  }
  if (command._tag === "CreateContact" && command.fromProfile && command.npub !== "") {
    // A contact brought in from (or already kept and found in) the imported follow list is followed.
    const { id } = result as ResultOf<"CreateContact">;
    const hex = npubToHex(command.npub);
    const list = states.nostr.identity ? states.nostr.follows.get(states.nostr.identity.pubkey) : undefined;
    const followed = crdtProjection.view(states.crdt).contacts?.[id]?.is_followed ?? false;
    if (!followed && hex && list && followedKeys(list.tags).includes(hex))
      return [{ _tag: "SetFollowed", id, followed: true }];
    return [];
  }
  if (command._tag === "SetFollowed") {
    const contact = crdtProjection.view(states.crdt).contacts?.[command.id];
    const hex = contact?.npub ? npubToHex(contact.npub) : null;
    if (!hex) return [];
    return [
      {
        _tag: "PublishFollows",
        follow: command.followed ? [hex] : [],
        unfollow: command.followed ? [] : [hex],
      },
    ];
  }
  return [];
};

/** How many reads one live burst may take to catch up (each opens up to 500 messages). */
const MAX_CATCH_UP_ROUNDS = 40;

/** The name of the live subscription to the wallet's private messages. */
export const MESSAGES_WATCH = "messages";

export const nostrAttachment = (side: HostSide): Attachment => {
  /** Relay events the live message subscription brought, gathered for one ReceiveMessages. */
  let arrivals: NostrEvent[] = [];

  /**
   * A private message arrived on the live subscription: it is recorded at once (events that arrive together
   * in one command), and `live.messages_arrived` tells an open chat to read itself again.
   */
  const arrived = (name: string, event: NostrEvent): void => {
    if (name !== MESSAGES_WATCH || side.stopped()) return;
    arrivals.push(event);
    if (arrivals.length > 1) return;
    setTimeout(() => {
      const events = arrivals;
      arrivals = [];
      if (side.stopped()) return;
      void (async () => {
        let a = await side.run({ _tag: "ReceiveMessages", events });
        // A burst past what one command opens waits on the relays: read on until none waits (bounded).
        for (let round = 0; round < MAX_CATCH_UP_ROUNDS; round++) {
          if (!a.ok) return;
          const { received, waiting } = a.value as { received: number; waiting: number };
          if (received > 0)
            side.setLive({ messages_arrived: (side.live().messages_arrived ?? 0) + received });
          if (!(waiting > 0) || side.stopped()) return;
          a = await side.run({ _tag: "SyncMessages" });
        }
      })();
    }, 0);
  };

  const hooks = (): EngineHooks["nostr"] => ({
    pending: () => pendingEvents(side.states().nostr),
    targets: (id) => targetRelays(side.states().nostr, id),
    published: (id, relay) =>
      side.enqueue(async () => {
        if (!side.states().nostr.outbox.has(id)) return;
        await side.commit([newEvent("nostr.published", { id, relay: relay.slice(0, 2_000) })]);
      }),
    failed: (id, refusals) =>
      side.enqueue(async () => {
        const { nostr } = side.states();
        if (!nostr.outbox.has(id) || nostr.failed.has(id)) return;
        const kept = refusals
          .slice(0, 100)
          .map((r) => ({ relay: r.relay.slice(0, 2_000), reason: r.reason.slice(0, 300) }));
        await side.commit([newEvent("nostr.failed", { id, refusals: kept })]);
      }),
    onStatus: (status) => side.setLive({ nostr_relays: status }),
    arrived,
  });

  return {
    engine: "nostr",
    hooks,
    // Something to publish was queued, or the identity changed: the outbox sends it (the engine starts if need be).
    decided: (events) => {
      if (!events.some((e) => e.type === "nostr.queued" || e.type === "nostr.identity")) return;
      const port = side.engines.port("nostr");
      if (port) port.flush();
      else if (side.canStart() && !side.engines.isStarting("nostr")) void side.ensureEngine("nostr");
    },
    // The commands that follow a successful one run one after another behind the queue.
    answered: (command, result) => {
      const next = nostrFollowUps(command, result, side.states());
      if (next.length === 0 || side.stopped()) return;
      void (async () => {
        for (const c of next) await side.run(c);
      })();
    },
  };
};
