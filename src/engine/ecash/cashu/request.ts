/**
 * cashu-ts's mint transport, replaced by the wallet's own: every request goes through the bounded fetch
 * (a deadline for the whole exchange and a cap on the answer's bytes), and errors keep cashu-ts's contract
 * (a NUT error `{code, detail}` becomes its `MintOperationError`, so its retries and checks still work).
 * The answers' shapes are then checked by cashu-ts and by the adapter before anything is believed.
 */
import {
  HttpResponseError,
  JSONInt,
  MintOperationError,
  NetworkError,
  type RequestFn,
} from "@cashu/cashu-ts";
import { boundedFetch, type FetchFn, type RequestLimits } from "../../http/bounded";

/**
 * A mint answers its reads, quotes, swaps and mints at once: a mint silent for 20 s is treated as down (the
 * operation is settled by asking it later, never repeated blindly). The keys of every keyset, a restore's
 * signatures and a long proof-state list stay well under 2 MB.
 */
export const MINT_REQUEST_LIMITS: RequestLimits = { timeoutMs: 20_000, maxBytes: 2 * 1024 * 1024 };
/** A melt waits on the lightning payment the mint makes: its request may take as long as one. */
export const MELT_REQUEST_LIMITS: RequestLimits = { timeoutMs: 90_000, maxBytes: 256 * 1024 };

const isMelt = (endpoint: string) => /\/v1\/melt\/[a-z0-9_-]+\/?(\?.*)?$/i.test(endpoint);

export const mintRequest = (
  fetchFn: FetchFn,
  limits: RequestLimits = MINT_REQUEST_LIMITS,
  meltLimits: RequestLimits = MELT_REQUEST_LIMITS,
): RequestFn => {
  const quick = boundedFetch(fetchFn, limits);
  const melt = boundedFetch(fetchFn, meltLimits);
  const request = async (args: {
    endpoint: string;
    requestBody?: Record<string, unknown>;
    headers?: Record<string, string>;
    method?: string;
  }): Promise<unknown> => {
    const body = args.requestBody ? JSONInt.stringify(args.requestBody) : undefined;
    let res: Response;
    try {
      const bounded = isMelt(args.endpoint) ? melt : quick;
      res = await bounded(args.endpoint, {
        method: args.method ?? (body ? "POST" : "GET"),
        headers: {
          Accept: "application/json",
          ...(body ? { "Content-Type": "application/json" } : {}),
          ...args.headers,
        },
        body,
        credentials: "omit",
        cache: "no-store",
      });
    } catch (e) {
      throw new NetworkError(e instanceof Error ? e.message : "The mint could not be reached", { cause: e });
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text === "" ? null : JSONInt.parse(text);
    } catch {
      throw new HttpResponseError("The mint answered something that is not JSON", res.status);
    }
    if (!res.ok) {
      const o = (typeof json === "object" && json !== null ? json : {}) as Record<string, unknown>;
      if (typeof o.code === "number" && typeof o.detail === "string")
        throw new MintOperationError(o.code, o.detail.slice(0, 300));
      const detail = typeof o.detail === "string" ? o.detail : typeof o.error === "string" ? o.error : "";
      throw new HttpResponseError(detail.slice(0, 300) || `The mint answered ${res.status}`, res.status);
    }
    if (json === null) throw new HttpResponseError("The mint answered nothing", res.status);
    return json;
  };
  return request as RequestFn;
};
