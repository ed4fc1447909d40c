/**
 * The wallet-connect engine beside the host: the desk that answers the apps' requests (`desk.ts`), its
 * notifications after each commit, the payments a crash left unanswered answered once the service runs, and
 * the service started, told or stopped as the owner's connections change.
 */
import type { Attachment, HostSide } from "../attached";
import { whenChannelsBack } from "../lightning";
import { NwcDesk } from "./desk";

export const nwcAttachment = (side: HostSide): Attachment => {
  const { engines } = side;
  const desk = new NwcDesk({
    enqueue: side.enqueue,
    commit: side.commit,
    states: side.states,
    run: side.run,
    nwc: () => engines.port("nwc"),
    lightning: () => engines.port("lightning"),
    whenLightning: () => engines.whenStarted("lightning"),
    whenChannelsBack: () => whenChannelsBack(engines),
    now: side.now,
    network: side.config.network,
  });
  const enabled = () => desk.hooks().connections().length > 0;

  /** The owner's connections changed: the service starts, listens to the new set, or stops. */
  const connectionsChanged = async (): Promise<void> => {
    if (side.stopped()) return;
    // A service still starting read the connections before this change: it takes it in once it runs.
    if (engines.isStarting("nwc")) await engines.whenStarted("nwc");
    const port = engines.port("nwc");
    const on = enabled();
    if (port && on) await port.refresh().catch(() => undefined);
    else if (port) await engines.stop("nwc");
    else if (on && !engines.isStarting("nwc")) await side.startEngines();
  };

  return {
    engine: "nwc",
    hooks: () => desk.hooks(),
    services: {
      nwcDesk: { approve: (id) => desk.approve(id), deny: (ids) => desk.deny(ids), enabled },
    },
    committed: (fresh) => {
      desk.observe(fresh);
      if (fresh.some((e) => e.type === "crdt.change")) void connectionsChanged();
    },
    // Payments a crash left unanswered are answered once the service runs again.
    status: (name, status) => {
      if (name === "nwc" && status.state === "ready") void desk.recover().catch(() => undefined);
    },
  };
};
