/**
 * Requests to the configured LSP's HTTP API (Voltage Flow 2 style). Kept apart from the node so the
 * wallet's commands can tell the LSP's answers apart without loading the lightning engine.
 *
 * Every request is bounded (`LSP_LIMITS`: a deadline for the whole exchange and a cap on the answer's
 * bytes) and every answer is read through a schema: an LSP that hangs, floods or answers nonsense is
 * "Failed to make a request to the LSP." within the deadline, never a wait without end.
 */
import { boundedFetch, type FetchFn, type RequestLimits } from "../http/bounded";
import type { PeerAddress } from "./socket";

/** An LSP's answers are a few hundred bytes; 15 s is ample for one on any network. */
export const LSP_LIMITS: RequestLimits = { timeoutMs: 15_000, maxBytes: 64_000 };

const UNREACHABLE = "Failed to make a request to the LSP.";

/** The LSP refused (`status` and its text) or could not be reached (`status` null). */
export class LspRequestError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

/** An answer's shape: the value read from its JSON, or null when it is not what was asked. */
export type LspSchema<T> = (json: Record<string, unknown>) => T | null;

const base = (lsp: string) => `${lsp.replace(/\/+$/, "")}/api/v1/`;

const request = async <T>(
  fetchFn: FetchFn,
  url: string,
  init: RequestInit | undefined,
  schema: LspSchema<T>,
  limits: RequestLimits,
): Promise<T> => {
  let r: Response;
  try {
    r = await boundedFetch(fetchFn, limits)(url, init);
  } catch {
    // Unreachable, silent past the deadline, or an answer longer than any LSP's.
    throw new LspRequestError(UNREACHABLE, null);
  }
  const text = await r.text().catch(() => "");
  if (!r.ok) throw new LspRequestError(text.trim().slice(0, 200) || `The LSP answered ${r.status}`, r.status);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new LspRequestError(UNREACHABLE, null);
  }
  const read = json && typeof json === "object" && !Array.isArray(json) ? schema(json as never) : null;
  if (read === null) throw new LspRequestError(UNREACHABLE, null);
  return read;
};

/** POSTs `body` as JSON to `path` under the LSP's `/api/v1/`; answers what `schema` reads of its JSON. */
export const postToLsp = <T>(
  lsp: string | null,
  fetchFn: FetchFn,
  path: string,
  body: unknown,
  schema: LspSchema<T>,
  limits: RequestLimits = LSP_LIMITS,
): Promise<T> => {
  if (!lsp) return Promise.reject(new LspRequestError("No LSP is configured.", null));
  return request(
    fetchFn,
    base(lsp) + path,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body, (_k, v) => (typeof v === "bigint" ? v.toString() : v)),
    },
    schema,
    limits,
  );
};

/** The LSP's node, as its `GET /api/v1/info` describes it. */
export interface LspNode {
  readonly pubkey: string;
  readonly address: PeerAddress;
}

/** `{pubkey, connection_methods: [{address, port}…]}`: the first method with an address and a port. */
export const readLspInfo: LspSchema<LspNode> = (json) => {
  const pubkey = typeof json.pubkey === "string" ? json.pubkey.toLowerCase() : "";
  if (!/^0[23][0-9a-f]{64}$/.test(pubkey)) return null;
  const methods = Array.isArray(json.connection_methods) ? json.connection_methods.slice(0, 20) : [];
  for (const m of methods) {
    if (typeof m !== "object" || m === null) continue;
    const { address, port } = m as Record<string, unknown>;
    if (typeof address !== "string" || address === "" || address.length > 255) continue;
    if (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535) continue;
    return { pubkey, address: { pubkey, host: address, port } };
  }
  return null;
};

export const fetchLspInfo = (
  lsp: string,
  fetchFn: FetchFn,
  limits: RequestLimits = LSP_LIMITS,
): Promise<LspNode> => request(fetchFn, `${base(lsp)}info`, undefined, readLspInfo, limits);

/** A fee quote: `{fee_amount_msat, id}`, the fee a whole number of msat (as a number or a string). */
export const readFeeQuote: LspSchema<{ readonly feeMsat: bigint; readonly id: string }> = (json) => {
  const fee = json.fee_amount_msat;
  const text = typeof fee === "number" && Number.isSafeInteger(fee) ? String(fee) : fee;
  if (typeof text !== "string" || !/^\d{1,20}$/.test(text)) return null;
  if (typeof json.id !== "string" || json.id === "" || json.id.length > 200) return null;
  return { feeMsat: BigInt(text), id: json.id };
};

/** A proposal's answer: `{jit_bolt11}`, the LSP's invoice (checked against the wallet's by the caller). */
export const readProposal: LspSchema<{ readonly jitBolt11: string }> = (json) =>
  typeof json.jit_bolt11 === "string" && json.jit_bolt11.length <= 8_000
    ? { jitBolt11: json.jit_bolt11 }
    : null;
