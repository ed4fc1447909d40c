/**
 * How long a channel partner must wait before spending its side of a channel it closed alone: the
 * `to_self_delay` the wallet asks of it. A partner that publishes a revoked state can be punished only
 * within that window, so it is how long the wallet (without a watchtower) may stay closed. A browser
 * wallet is closed most of the time: it asks for about two weeks of blocks, the most LDK's peers accept by
 * default and what LSPS2's `max_client_to_self_delay` must allow.
 */
export const WALLET_TO_SELF_DELAY = 2016;

/**
 * The shortest delay the wallet asks of a partner, whatever the owner accepts: a day of blocks. Below it a
 * wallet closed overnight could miss a cheat with no tower to catch it, and it is LDK's own default
 * (BREAKDOWN_TIMEOUT), the delay lightning nodes have long taken as the least that is safe.
 */
export const MIN_TO_SELF_DELAY = 144;

/** About 144 blocks are found a day. */
export const BLOCKS_A_DAY = 144;

/** Whole days `blocks` last, at about ten minutes a block. */
export const delayDays = (blocks: number): number => Math.floor(blocks / BLOCKS_A_DAY);

/** What a node starting from its saved state learnt: how many blocks went by while it was closed. */
export interface ClosedFor {
  /** Blocks found between the last one the node saw and the chain's tip now. */
  readonly blocks: number;
  /** The delay partners must wait (blocks): the most the wallet may stay closed without a watchtower. */
  readonly limitBlocks: number;
}

/** Whether a wallet closed for `blocks` used more than half the window in which a cheat can be punished. */
export const closedTooLong = (c: ClosedFor): boolean => c.blocks * 2 > c.limitBlocks;

/** How long a node last saw the chain at `lastSeen` was closed (a new node: no time); null if the tip is unknown. */
export const closedFor = (
  lastSeen: number | null,
  tip: () => Promise<number>,
  limitBlocks: number = WALLET_TO_SELF_DELAY,
): Promise<ClosedFor | null> =>
  (lastSeen === null ? Promise.resolve(0) : tip().then((t) => Math.max(0, t - lastSeen)))
    .then((blocks) => ({ blocks, limitBlocks }))
    .catch(() => null);
