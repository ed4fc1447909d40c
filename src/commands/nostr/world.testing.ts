import { beforeAll } from "vitest";
import { stopAfterAll } from "../../../harness/stop-after-all";
import { type NostrTestWorld, startNostrWorld } from "../host/host.testing";

/** The world's nostr services (see `startNostrWorld`) for one test file: started before its tests, stopped after. */
export const nostrWorldForTests = (): NostrTestWorld => {
  let world: NostrTestWorld | undefined;
  beforeAll(async () => {
    world = await startNostrWorld();
  });
  stopAfterAll(() => [world]);
  const started = (): NostrTestWorld => {
    if (!world) throw new Error("The nostr world has not started");
    return world;
  };
  return {
    get nostr() {
      return started().nostr;
    },
    get base() {
      return started().base;
    },
    get link() {
      return started().link;
    },
    viaLink: () => started().viaLink(),
    configOf: (relays) => started().configOf(relays),
    stop: () => started().stop(),
  };
};
