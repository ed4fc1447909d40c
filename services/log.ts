/**
 * The services' log: one JSON object a line on standard output (`{"time", "level", "msg", …fields}`), what an
 * operator's journal or log collector reads. One line per request (services/http.ts) and per change of state
 * (the database, an upstream, the gossip node, a stop); a failure's details go here and never into an answer.
 */

export type Level = "debug" | "info" | "warn" | "error";

export interface Log {
  readonly info: (msg: string, fields?: Record<string, unknown>) => void;
  readonly warn: (msg: string, fields?: Record<string, unknown>) => void;
  readonly error: (msg: string, fields?: Record<string, unknown>) => void;
}

/** What a failure says, for the log: its message and, for a system error, its code (never a stack). */
export const describeError = (e: unknown): string => {
  if (e instanceof AggregateError && e.errors.length > 0) return describeError(e.errors[0]);
  if (e instanceof Error) {
    const cause = e.cause instanceof Error ? `: ${describeError(e.cause)}` : "";
    return `${e.message || e.name}${cause}`;
  }
  return String(e);
};

export const jsonLog = (write: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Log => {
  const line =
    (level: Level) =>
    (msg: string, fields: Record<string, unknown> = {}) =>
      write(
        JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }, (_k, v) =>
          typeof v === "bigint" ? v.toString() : v,
        ),
      );
  return { info: line("info"), warn: line("warn"), error: line("error") };
};

/** A log that keeps nothing (a test that does not read it). */
export const silentLog: Log = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * Logs `name`'s state only when it changes (`ok` → failing with why, failing → `ok`), so an outage is one
 * line at its start and one at its end, not one a request.
 */
export const stateLog = (log: Log) => {
  const states = new Map<string, string>();
  return (name: string, problem: string | null, fields: Record<string, unknown> = {}) => {
    const state = problem ?? "ok";
    if (states.get(name) === state) return;
    const first = !states.has(name);
    states.set(name, state);
    if (problem) log.warn(`${name} failing`, { check: name, problem, ...fields });
    else if (!first) log.info(`${name} back`, { check: name, ...fields });
  };
};
