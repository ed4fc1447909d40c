/**
 * The storage banner's one state, fed by the channel store's writes (the lightning engine's hook) and the
 * wallet's log sync: one getting through never hides the other still waiting.
 */
import { describe, expect, it } from "vitest";
import type { LiveState } from "../../projections/live";
import { type LightningHost, lightningHooks, lightningLive } from "../lightning/hooks";
import { setStorageWaiting } from "./waiting";

const holder = () => {
  // Only the storage fields matter here.
  let live = {} as LiveState;
  const host = {
    live: () => live,
    setLive: (patch: Partial<LiveState>) => {
      live = { ...live, ...patch };
    },
  };
  const channels = lightningHooks(host as unknown as LightningHost);
  return { host, channels, banner: () => live.storage_waiting === true };
};

describe("the storage banner", () => {
  it("stays while the channel store waits, though the log's sync got through", () => {
    const { host, channels, banner } = holder();
    channels.onStorageWaiting?.(true);
    expect(banner()).toBe(true);
    setStorageWaiting(host, "log", true);
    setStorageWaiting(host, "log", false);
    expect(banner()).toBe(true);
    expect(host.live().storage_waiting_for).toEqual(["channels"]);
    channels.onStorageWaiting?.(false);
    expect(banner()).toBe(false);
  });

  it("stays while the log waits, though the channel store's write got through", () => {
    const { host, channels, banner } = holder();
    setStorageWaiting(host, "log", true);
    channels.onStorageWaiting?.(true);
    channels.onStorageWaiting?.(false);
    expect(banner()).toBe(true);
    setStorageWaiting(host, "log", false);
    expect(banner()).toBe(false);
    expect(host.live().storage_waiting_for).toEqual([]);
  });

  it("goes when the node stops or starts again, with everything that waited", () => {
    const { host, channels, banner } = holder();
    channels.onStorageWaiting?.(true);
    setStorageWaiting(host, "log", true);
    host.setLive(lightningLive({ state: "off" }, null));
    expect(banner()).toBe(false);
    // Saying again what already is changes nothing.
    const before = host.live();
    setStorageWaiting(host, "log", false);
    expect(host.live()).toBe(before);
  });
});
