/**
 * Every request the wallet makes to a server it does not control goes through here: a deadline for the whole
 * exchange (headers and body, so a server that drips a byte a second is cut off too) and a cap on the bytes
 * read, counted as they arrive, so an answer of 50 MB is refused after the first few kB over the cap instead
 * of being read into memory.
 */
import { Data } from "effect";
import type { FetchFn } from "./platform-fetch";

export interface RequestLimits {
  /** The whole exchange, from sending the request to the answer's last byte. */
  readonly timeoutMs: number;
  /** The most bytes of answer body read before the request is refused. */
  readonly maxBytes: number;
}

/** The server did not finish answering within the deadline. */
export class RequestTimedOut extends Data.TaggedError("RequestTimedOut")<{
  readonly message: string;
  readonly url: string;
  readonly timeoutMs: number;
}> {}

/** The server's answer was longer than the wallet reads. */
export class AnswerTooLarge extends Data.TaggedError("AnswerTooLarge")<{
  readonly message: string;
  readonly url: string;
  readonly maxBytes: number;
}> {}

export { type FetchFn, globalFetch } from "./platform-fetch";

/** The URL a fetch is asked for, whichever form it was given in. */
export const urlOf = (input: string | URL | Request): string =>
  typeof input === "string" ? input : input instanceof URL ? input.href : input.url;

/** Statuses whose answer cannot carry a body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

const readCapped = async (res: Response, url: string, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> => {
  const declared = Number(res.headers.get("content-length") ?? Number.NaN);
  const tooLarge = () =>
    new AnswerTooLarge({ message: `The answer from ${url} is larger than ${maxBytes} bytes`, url, maxBytes });
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!res.body) {
    const all = new Uint8Array(await res.arrayBuffer());
    if (all.length > maxBytes) throw tooLarge();
    return all;
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
};

/**
 * `fetchFn` with `limits`: the answer is read whole (within the cap) before it is handed back, so its
 * `text()`/`json()` never wait on the network. Fails with `RequestTimedOut` or `AnswerTooLarge`, or with what
 * `fetchFn` fails with (an unreachable server, the caller's own abort).
 */
export const boundedFetch =
  (fetchFn: FetchFn, limits: RequestLimits): FetchFn =>
  async (input, init) => {
    const url = urlOf(input);
    const controller = new AbortController();
    const timedOut = new RequestTimedOut({
      message: `${url} did not answer within ${limits.timeoutMs} ms`,
      url,
      timeoutMs: limits.timeoutMs,
    });
    const outer = init?.signal;
    const onOuterAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) onOuterAbort();
    else outer?.addEventListener("abort", onOuterAbort, { once: true });
    const timer = setTimeout(() => controller.abort(timedOut), limits.timeoutMs);
    try {
      const res = await fetchFn(input, { ...init, signal: controller.signal });
      const body = await readCapped(res, url, limits.maxBytes);
      const read = new Response(NULL_BODY.has(res.status) ? null : body, {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      });
      // Where the answer came from after redirects, which a constructed Response would otherwise lose.
      Object.defineProperty(read, "url", { value: res.url });
      return read;
    } catch (e) {
      if (controller.signal.reason === timedOut) throw timedOut;
      throw e;
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onOuterAbort);
    }
  };
