/**
 * LDK's logger, as the node hands it to everything it builds. LDK calls it from its wasm for every line it
 * could log, the finest ones included (its levels are compiled in): applying a mainnet-sized gossip
 * snapshot logs some 300,000 gossip-level lines. The bindings' own `Logger.new_impl` wraps each one in a
 * `Record` registered with a FinalizationRegistry, and the line's bytes stay in LDK's memory until the
 * garbage collector gets to it: most of the snapshot's time went to that collector, and LDK's memory
 * (which never shrinks) grew by the lines it held.
 *
 * Here the gossip and trace lines, which the wallet never shows, are freed the moment they arrive, read
 * through the bindings' own functions on the record's pointer; only the lines the wallet keeps become a
 * `Record`.
 */
import * as ldk from "lightningdevkit";
import * as raw from "lightningdevkit/bindings.mjs";
import type { Log } from "./chain";

/** The bindings' functions on a record's pointer (internal to the bindings, so not in their types). */
interface RecordFns {
  readonly Record_get_level: (ptr: unknown) => ldk.Level;
  readonly Record_free: (ptr: unknown) => void;
}

/** What `Logger.new_impl` keeps: the object whose `log` LDK's calls reach, with the record's pointer. */
interface LoggerInstance {
  log: (this: unknown, ptr: unknown) => void;
}

/** The finest level the wallet keeps (debug: LDK's debug, info, warn and error lines). */
const kept = (level: ldk.Level) => level >= ldk.Level.LDKLevel_Debug;

/** A logger that passes LDK's debug lines and above to `log` and drops the rest on arrival. */
export const ldkLogger = (log: Log): ldk.Logger => {
  const logger = ldk.Logger.new_impl({
    log: (record: ldk.Record) => {
      try {
        const level = record.get_level();
        const kind =
          level === ldk.Level.LDKLevel_Error ? "error" : level === ldk.Level.LDKLevel_Warn ? "warn" : "debug";
        log(kind, `${record.get_module_path()}: ${record.get_args()}`);
      } catch {
        // a log line is never worth the node
      }
    },
  } as ldk.LoggerInterface);
  const fns = raw as unknown as RecordFns;
  const instance = (logger as unknown as { bindings_instance: LoggerInstance | null }).bindings_instance;
  // Bindings that keep their implementation elsewhere get the wrapped logger as it is (slower, not wrong).
  if (instance && typeof fns.Record_get_level === "function" && typeof fns.Record_free === "function") {
    const wrap = instance.log;
    instance.log = function (ptr) {
      if (kept(fns.Record_get_level(ptr))) wrap.call(this, ptr);
      else fns.Record_free(ptr);
    };
  }
  return logger;
};
