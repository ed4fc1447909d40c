/**
 * Registers the wallet for `bitcoin:` and `lightning:` links, so a link in another page opens the send
 * screen. `bitcoin` may be registered as is; `lightning` is not on browsers' list of safe schemes, so it
 * goes as `web+lightning` (the send screen reads both forms).
 */
export const PROTOCOLS = ["bitcoin", "web+lightning", "web+bitcoin"] as const;

export const registerProtocolHandlers = (origin: string): void => {
  const nav = globalThis.navigator as Navigator | undefined;
  if (!nav || typeof nav.registerProtocolHandler !== "function") return;
  for (const scheme of PROTOCOLS) {
    try {
      nav.registerProtocolHandler(scheme, `${origin}/send?to=%s`);
    } catch {
      // A browser that refuses a scheme leaves links of that scheme to other apps.
    }
  }
};
