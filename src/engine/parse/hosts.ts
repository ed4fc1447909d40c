/**
 * Which scheme reaches a service host: https everywhere except onion services, which use http inside Tor,
 * and the device's own loopback, where the local development servers run.
 */
export const isOnion = (hostname: string): boolean => hostname.toLowerCase().endsWith(".onion");

export const isLoopback = (hostname: string): boolean =>
  ["localhost", "127.0.0.1", "[::1]", "::1"].includes(hostname.toLowerCase());

export const schemeFor = (hostname: string): "http:" | "https:" =>
  isOnion(hostname) || isLoopback(hostname) ? "http:" : "https:";

/** True when `url` uses the scheme its host calls for (https, or http for onion and loopback hosts). */
export const usesExpectedScheme = (url: URL): boolean =>
  url.protocol === "https:" || (url.protocol === "http:" && schemeFor(url.hostname) === "http:");
