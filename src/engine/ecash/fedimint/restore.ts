import type { EcashAdapter } from "../port";
import { ecashMoved } from "../moved";
import { type Fedimint, record } from "./federation";
import { mergeProgress, satsOfMsats } from "./map";

/**
 * The federation's client recovers its notes itself (its secret is its own, not the wallet's 12 words):
 * whatever it holds beyond what the log counts is recorded as restored.
 */
export const restore = (
  fedimint: Fedimint,
  fed: string,
  onProgress: Parameters<EcashAdapter["restore"]>[1],
) =>
  fedimint.withFederation(fed, async (w, s) => {
    if (await w.recovery.hasPendingRecoveries()) {
      const byModule = new Map<number, { complete: number; total: number }>();
      const cancel = w.recovery.subscribeToRecoveryProgress(
        (u) => {
          try {
            onProgress?.(mergeProgress(byModule, u));
          } catch {
            // A progress answer the wallet cannot read only leaves the dialog where it was.
          }
        },
        () => undefined,
      );
      try {
        await w.recovery.waitForAllRecoveries();
      } finally {
        cancel();
      }
    }
    const held = satsOfMsats(await w.balance.getBalance());
    const logged = fedimint.env.hooks.held?.(fed) ?? held;
    const events =
      held > logged
        ? record(s, [ecashMoved("ecash.received", fed, fedimint.uuid(), held - logged, 0n, "restore", null)])
        : [];
    await fedimint.persist(fed, s);
    return { amountSats: held > logged ? held - logged : 0n, events };
  });
