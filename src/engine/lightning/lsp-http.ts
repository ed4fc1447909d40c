/**
 * Requests to the configured LSP's HTTP API (Voltage Flow 2 style). Kept apart from the node so the
 * wallet's commands can tell the LSP's answers apart without loading the lightning engine.
 */

/** The LSP refused (`status` and its text) or could not be reached (`status` null). */
export class LspRequestError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

export const postToLsp = async (
  lsp: string | null,
  fetchFn: typeof fetch,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> => {
  if (!lsp) throw new LspRequestError("No LSP is configured.", null);
  let r: Response;
  try {
    r = await fetchFn(`${lsp.replace(/\/+$/, "")}/api/v1/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body, (_k, v) => (typeof v === "bigint" ? v.toString() : v)),
    });
  } catch {
    throw new LspRequestError("Failed to make a request to the LSP.", null);
  }
  const text = await r.text().catch(() => "");
  if (!r.ok) throw new LspRequestError(text.trim().slice(0, 200) || `The LSP answered ${r.status}`, r.status);
  try {
    const json = JSON.parse(text) as unknown;
    if (json && typeof json === "object" && !Array.isArray(json)) return json as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new LspRequestError("Failed to make a request to the LSP.", null);
};
