/**
 * The lightning address beside the host: payments to it while the wallet was closed wait at the mint as
 * tokens, redeemed when the wallet starts and then every minute while it runs (a payment can reach the mint
 * while it runs too: the service asked while the node was still starting, and the payer paid later).
 */
import type { Attachment, HostSide } from "../attached";

/** How often a running wallet looks for tokens paid to its lightning address. */
const ADDRESS_CHECK_MS = 60_000;

export const lightningAddressAttachment = (side: HostSide): Attachment => {
  /** The tokens are looked for in this run (at start, then now and then). */
  let checked = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const redeem = async (): Promise<void> => {
    if (side.stopped()) return;
    if (side.states().lnaddress.reservation?.mint) await side.run({ _tag: "RedeemAddressTokens" });
    if (side.stopped()) return;
    timer = setTimeout(() => void redeem(), ADDRESS_CHECK_MS);
    // In Node (tests, replay) a wallet left open does not keep the process alive for it.
    (timer as { unref?: () => void }).unref?.();
  };
  return {
    started: () => {
      if (checked || side.emergency) return;
      checked = true;
      void redeem();
    },
    stop: () => {
      if (timer) clearTimeout(timer);
    },
  };
};
