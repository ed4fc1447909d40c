import { toWire, unexpected } from "../../errors";
import type { CommandAnswer } from "../attached";
import type { CommandTag } from "../command";

/** The only command that never touches the owner-edited document: a new wallet has no edits yet. */
const WITHOUT_CRDT: ReadonlySet<CommandTag> = new Set(["CreateWallet"]);

/**
 * Commands wait for Automerge's wasm to load before their first run, except one that never touches the
 * owner-edited document. In emergency mode the kit works without Automerge (a saved file carries the log,
 * every change, but no document): only edits of the document fail then.
 */
export class CrdtGate {
  private loaded = false;
  /** Emergency mode without Automerge. */
  missing = false;

  constructor(
    private readonly ready: Promise<void> | undefined,
    private readonly emergency: boolean,
  ) {}

  /** Null when `tag` may run now; else resolves once it may (null) or with the answer it gets instead. */
  before(tag: CommandTag): Promise<CommandAnswer | null> | null {
    if (!this.ready || this.loaded || WITHOUT_CRDT.has(tag)) return null;
    return this.ready.then(
      () => {
        this.loaded = true;
        return null;
      },
      (e) => {
        if (!this.emergency) return { ok: false, error: toWire(unexpected(e)) };
        this.loaded = true;
        this.missing = true;
        return null;
      },
    );
  }
}
