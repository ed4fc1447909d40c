import type { Event } from "nostr-tools/core";
import { Relay } from "nostr-tools/relay";

/** Publishes `event` to the relay at `url` as an outside client does (nostr-tools), and disconnects. */
export const publishFromOutside = async (url: string, event: Event): Promise<void> => {
  const outside = await Relay.connect(url);
  try {
    await outside.publish(event);
  } finally {
    outside.close();
  }
};
