/** Nostr events as the engine reads them: the log's own checks (shape, size, id and signature). */
export {
  checkEvent,
  MAX_EVENT_BYTES,
  type NostrEvent,
  newerThan,
  plainEvent,
} from "../../events/nostr-event";
