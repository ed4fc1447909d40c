/**
 * The ecash engine beside the host: which mints it holds at and how much, the operations it records (once
 * each), the engine started when a mint is joined, and the mints' info read again while it runs.
 */
import type { EngineHooks } from "../../engine/engine";
import type { Attachment, HostSide } from "../attached";

/** How often the joined mints' info is read again while the wallet is open. */
export const ECASH_INFO_REFRESH_MS = 60 * 60 * 1000;

export const ecashAttachment = (side: HostSide): Attachment => {
  /** Reads the joined mints' info again while the ecash engine runs (see ECASH_INFO_REFRESH_MS). */
  let infoTimer: ReturnType<typeof setInterval> | null = null;
  const hooks = (): EngineHooks["ecash"] => ({
    mints: () =>
      [...side.states().ecash.custodians.values()]
        .filter((c) => c.joined || c.balance > 0n)
        .map((c) => c.mint),
    held: (mint) => side.states().ecash.custodians.get(mint)?.balance ?? 0n,
    // Only what the log does not have yet: an operation recorded before is not recorded again.
    record: (events) =>
      side.enqueue(() =>
        side.commit(
          events.filter(
            (e) =>
              (e.type !== "ecash.received" && e.type !== "ecash.sent") ||
              !side.states().ecash.ops.has(`${e.type}:${e.payload.op}`),
          ),
        ),
      ),
  });
  return {
    engine: "ecash",
    hooks,
    // A joined mint makes the engine needed.
    startsEngines: (events) => events.some((e) => e.type === "ecash.joined"),
    status: (name, status) => {
      // A mint's name, messages and end date are read again when the wallet opens, then on a schedule.
      if (name !== "ecash" || status.state !== "ready" || infoTimer || side.stopped()) return;
      const refresh = () => void side.run({ _tag: "RefreshEcashInfo" }).catch(() => undefined);
      refresh();
      infoTimer = setInterval(refresh, ECASH_INFO_REFRESH_MS);
    },
    stop: () => {
      if (infoTimer) clearInterval(infoTimer);
    },
  };
};
