/**
 * One device at a time (ARCHITECTURE.md rule 8): a lock in the wallet's store naming the device that runs the
 * node and when it last said so. Two devices on one seed would run two nodes with the same keys, which is how
 * channels get force-closed.
 *
 * - The lock is the store's `device_lock`: `{device, at}` (sealed like every value). It holds until
 *   `at + ttl` (60 s); the device that holds it refreshes it every `refresh` (15 s) while its node runs, so
 *   a network blip of up to 45 s does not stop its node.
 * - It is taken and refreshed by conditional writes only: at version 0 when absent, else at the version
 *   read. Of two devices writing at the same version the server lets exactly one through, so two can never
 *   both hold it.
 * - A device that finds it held by another, unexpired, is told how many seconds remain (the spec's "already
 *   running" countdown, `get_device_lock_remaining_secs`); with a storage error the countdown is 60 s.
 * - The holder learns it lost the lock when a refresh finds another device's write (taken over after it
 *   expired), or when it could not refresh before its own lock ran out: it must stop its node at once.
 *
 * Times are each device's own clock; a device whose clock runs ahead by more than the lock's life could take
 * over early. The refresh margin (half the life) absorbs ordinary skew.
 */
import { Data } from "effect";
import { StorageConflict } from "./errors";
import { type SealedStore, versionAfter } from "./sealed";
import type { PreparedRequest } from "./vss-client";

export const DEVICE_LOCK_NAME = "device_lock";
/** This device's id on the storage server (the device lock's holder), kept in the device's own store. */
export const DEVICE_ID_KEY = "storage/device";
export const DEVICE_LOCK_TTL_SECS = 60;
export const DEVICE_LOCK_REFRESH_SECS = 15;
/** The spec's countdown when the lock cannot be read (spec 1: "lock-wait fallback 60 s on error"). */
export const LOCK_WAIT_FALLBACK_SECS = 60;

/** Another device runs this wallet's node; `remainingSecs` until its lock runs out unless it refreshes. */
export class AlreadyRunning extends Data.TaggedError("AlreadyRunning")<{
  readonly message: string;
  readonly remainingSecs: number;
}> {}

/** This device no longer holds the lock: another took it over, or it could not be refreshed in time. */
export class DeviceLockLost extends Data.TaggedError("DeviceLockLost")<{
  readonly message: string;
  readonly reason: "taken" | "expired";
}> {}

/**
 * The storage server refused each write of the lock as a conflict though the lock stayed as read (no other
 * device wrote it): a server that refuses every write, not a lock held elsewhere.
 */
export class StorageRefusesWrites extends Data.TaggedError("StorageRefusesWrites")<{
  readonly message: string;
}> {}

export const ALREADY_RUNNING_TEXT = "Mutiny is already running on another device.";
export const REFUSES_WRITES_TEXT =
  "The storage server refuses every write, so lightning cannot start here. No other device holds the lock.";
const LOST_TEXT = {
  taken: "Mutiny was opened on another device, so it stopped here.",
  expired: "Mutiny could not reach its storage server to keep running on this device, so it stopped here.",
} as const;

export interface LockHolder {
  readonly device: string;
  /** Which start of the node on that device (a device reopened takes its own lock at once, as a new session). */
  readonly session: string;
  /** When the holder last wrote the lock (ms since the epoch, its clock). */
  readonly at: number;
}

export interface DeviceLockOptions {
  readonly store: SealedStore;
  readonly deviceId: string;
  readonly now?: () => number;
  readonly ttlSecs?: number;
  readonly refreshSecs?: number;
  /**
   * Told after each write of the lock the request that gives it up (a delete conditional on the version
   * just written, signed now), and null once this device no longer holds it: the page sends it as it
   * closes, so another device need not wait out the lock. Conditional on the version, it deletes nothing
   * once another device has written the lock.
   */
  readonly onRelease?: (request: PreparedRequest | null) => void;
}

const encode = (h: LockHolder) => new TextEncoder().encode(JSON.stringify(h));
const decode = (b: Uint8Array): LockHolder | null => {
  try {
    const v = JSON.parse(new TextDecoder().decode(b)) as unknown;
    if (v && typeof v === "object") {
      const { device, session, at } = v as { device?: unknown; session?: unknown; at?: unknown };
      if (
        typeof device === "string" &&
        typeof session === "string" &&
        typeof at === "number" &&
        Number.isFinite(at)
      )
        return { device, session, at };
    }
  } catch {
    // unreadable: treated as no holder's
  }
  return null;
};

export class DeviceLock {
  private readonly now: () => number;
  private readonly ttlMs: number;
  private readonly refreshMs: number;
  /** The lock's version after this device's last write, while it holds it. */
  private version: bigint | null = null;
  /** Until when this device's last write holds the lock. */
  private heldUntil = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private refreshing: Promise<void> | null = null;
  private readonly session = Array.from(globalThis.crypto.getRandomValues(new Uint8Array(8)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");

  constructor(private readonly opts: DeviceLockOptions) {
    this.now = opts.now ?? Date.now;
    this.ttlMs = (opts.ttlSecs ?? DEVICE_LOCK_TTL_SECS) * 1000;
    this.refreshMs = (opts.refreshSecs ?? DEVICE_LOCK_REFRESH_SECS) * 1000;
  }

  /** The current holder and the lock's version, or null if no device holds it (absent or unreadable). */
  private async read(): Promise<{ holder: LockHolder | null; version: bigint | null }> {
    const v = await this.opts.store.get(DEVICE_LOCK_NAME);
    return v ? { holder: decode(v.value), version: v.version } : { holder: null, version: null };
  }

  private remainingOf(holder: LockHolder): number {
    return Math.max(0, Math.ceil((holder.at + this.ttlMs - this.now()) / 1000));
  }

  /** Writes this device into the lock, conditional on `version` (0: absent). */
  private async write(version: bigint): Promise<void> {
    const at = this.now();
    await this.opts.store.put([
      {
        name: DEVICE_LOCK_NAME,
        version,
        value: encode({ device: this.opts.deviceId, session: this.session, at }),
      },
    ]);
    this.version = versionAfter(version);
    this.heldUntil = at + this.ttlMs;
    this.announce();
  }

  /** Gives the page the request that releases the lock as this device holds it now (or null: none). */
  private announce(): void {
    if (!this.opts.onRelease) return;
    try {
      this.opts.onRelease(
        this.version === null ? null : this.opts.store.deleteRequest(DEVICE_LOCK_NAME, this.version),
      );
    } catch {
      // The page's copy is a shortcut: without it, another device waits for the lock to run out.
    }
  }

  /** This device no longer holds the lock (lost, or being given up): the page's release is withdrawn. */
  private forget(): void {
    this.version = null;
    this.announce();
  }

  /**
   * Takes the lock if no other device holds it (absent, expired or this device's own). Fails with
   * `AlreadyRunning` (and the seconds left) when another does, `StorageRefusesWrites` when every write is
   * refused as a conflict while the lock stays as read (nobody else wrote it), or with a storage error.
   */
  async acquire(): Promise<void> {
    // The lock as each attempt read it: unchanged across refused writes, no device wrote it meanwhile.
    const reads: string[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const { holder, version } = await this.read();
      reads.push(`${version}:${holder?.device}:${holder?.session}:${holder?.at}`);
      if (holder && holder.device !== this.opts.deviceId && this.remainingOf(holder) > 0)
        throw new AlreadyRunning({ message: ALREADY_RUNNING_TEXT, remainingSecs: this.remainingOf(holder) });
      try {
        await this.write(version ?? 0n);
        return;
      } catch (e) {
        // Another device wrote between the read and the write: read again to see who holds it now.
        if (!(e instanceof StorageConflict)) throw e;
      }
    }
    const { holder, version } = await this.read();
    reads.push(`${version}:${holder?.device}:${holder?.session}:${holder?.at}`);
    if (reads.every((r) => r === reads[0])) throw new StorageRefusesWrites({ message: REFUSES_WRITES_TEXT });
    throw new AlreadyRunning({
      message: ALREADY_RUNNING_TEXT,
      remainingSecs: holder ? this.remainingOf(holder) : LOCK_WAIT_FALLBACK_SECS,
    });
  }

  /**
   * Writes the lock again at the version this device last wrote. Fails with `DeviceLockLost` once another
   * device has written it, or once a storage error kept this device from refreshing before it ran out
   * (the error itself is thrown while there is time left).
   */
  async refresh(): Promise<void> {
    if (this.version === null) throw new DeviceLockLost({ message: LOST_TEXT.taken, reason: "taken" });
    let failure: unknown;
    try {
      await this.write(this.version);
      return;
    } catch (e) {
      failure = e;
    }
    if (failure instanceof StorageConflict) {
      const { holder, version } = await this.read().catch(() => ({ holder: null, version: null }));
      const mine = holder?.session === this.session && holder.device === this.opts.deviceId;
      // This device's own write landed though its answer was lost: carry on from it.
      if (mine && version !== null && version !== this.version) {
        this.version = version;
        return this.refresh();
      }
      // The lock is as this device last wrote it, and the write was refused all the same: a server that
      // refuses writes, waited out like one that cannot be reached.
      if (mine && version === this.version)
        failure = new StorageRefusesWrites({ message: REFUSES_WRITES_TEXT });
      else {
        this.forget();
        throw new DeviceLockLost({ message: LOST_TEXT.taken, reason: "taken" });
      }
    }
    if (this.now() >= this.heldUntil) {
      this.forget();
      throw new DeviceLockLost({ message: LOST_TEXT.expired, reason: "expired" });
    }
    throw failure;
  }

  /** Refreshes every `refreshSecs` until `stop`; `onLost` is told once if the lock is lost. */
  keep(onLost: (lost: DeviceLockLost) => void): void {
    this.stopKeeping();
    this.timer = setInterval(() => {
      if (this.refreshing) return;
      this.refreshing = this.refresh()
        .catch((e) => {
          if (e instanceof DeviceLockLost) {
            this.stopKeeping();
            onLost(e);
          }
        })
        .finally(() => {
          this.refreshing = null;
        });
    }, this.refreshMs);
  }

  stopKeeping(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Gives the lock up (the node stopped cleanly), so another device may start at once. */
  async release(): Promise<void> {
    this.stopKeeping();
    await this.refreshing;
    const version = this.version;
    this.forget();
    if (version !== null) await this.opts.store.delete(DEVICE_LOCK_NAME, version);
  }

  /**
   * Seconds until another device's lock runs out (0 when no other device holds it); the spec's 60 s when
   * the lock cannot be read.
   */
  async remainingSecs(): Promise<number> {
    try {
      const { holder } = await this.read();
      if (!holder || holder.device === this.opts.deviceId) return 0;
      return this.remainingOf(holder);
    } catch {
      return LOCK_WAIT_FALLBACK_SECS;
    }
  }

  /** Whether this device holds the lock as far as it knows (its last write, not yet run out). */
  holds(): boolean {
    return this.version !== null && this.now() < this.heldUntil;
  }
}

/**
 * The spec's `get_device_lock_remaining_secs` for a device about to start: seconds another device's lock
 * has left (0 if none holds it), 60 when the store cannot be read.
 */
export const deviceLockRemainingSecs = (
  store: SealedStore,
  deviceId: string,
  now?: () => number,
): Promise<number> => new DeviceLock({ store, deviceId, ...(now ? { now } : {}) }).remainingSecs();
