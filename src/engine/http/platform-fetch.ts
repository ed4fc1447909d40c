// Apart from \`bounded.ts\` so that the page's first script can hold a fetch without the error types' library.

export type FetchFn = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * The platform's own fetch, unbounded: only for handing to \`boundedFetch\` (or to a client that wraps it
 * so). Nothing outside \`src/engine/http\` reads the global \`fetch\` (the linter refuses it).
 */
export const globalFetch: FetchFn = (input, init) => fetch(input, init);
