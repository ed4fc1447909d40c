/**
 * What the services answer when they fail: a catalogue code and its text, shaped as LNURL's error
 * (`{"status": "ERROR", "reason"}`, LUD-06) so a payer's wallet shows the reason, with `error` the code a client
 * may act on. What failed inside (an address, a driver's message) goes to the log, never into the answer.
 */
import type { Reply } from "./http";

export const SERVICE_ERRORS = {
  database_unavailable: "The service's database is not answering. Try again in a moment.",
  internal: "The service could not answer. Try again later.",
  shutting_down: "The service is restarting. Try again in a moment.",
  rate_limited: "Too many requests. Try again in a minute.",
  quota_exceeded: "This key's storage is full.",
  too_large: "The request is too large.",
} as const;

export type ServiceErrorCode = keyof typeof SERVICE_ERRORS;

export const errorAnswer = (code: ServiceErrorCode, status: number): Reply => ({
  status,
  json: { status: "ERROR", error: code, reason: SERVICE_ERRORS[code] },
});

const NET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "EAI_AGAIN",
]);

/** Whether `e` says the database cannot be reached (rather than a query that is wrong). */
export const isDatabaseDown = (e: unknown): boolean => {
  if (e instanceof AggregateError) return e.errors.some(isDatabaseDown);
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === "string" && (NET_CODES.has(code) || /^(08|57P|53)/.test(code))) return true;
  return /Connection terminated|timeout exceeded when trying to connect|connection error|Client was closed/i.test(
    e.message,
  );
};
