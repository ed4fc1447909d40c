/**
 * Where the price comes from. A source is a URL and the shape of its answer:
 * - `single`: one currency per request, `GET …/api/v1/price/{code}` → `{"currency":"USD","price":98765.43}`
 *   (the local regtest world serves this under its Esplora base);
 * - `table`: every currency in one answer, `GET https://mempool.space/api/v1/prices` →
 *   `{"time":1700000000,"USD":98765,"EUR":91234,…}`.
 * `{code}` in the URL is replaced by the upper-case currency code.
 */
export type PriceShape = "single" | "table";

export interface PriceSource {
  readonly url: string;
  readonly shape: PriceShape;
}

/** A source from the wallet's URL template: one that names `{code}` answers per currency, else a table. */
export const priceSourceFromTemplate = (template: string): PriceSource => ({
  url: template,
  shape: template.includes("{code}") ? "single" : "table",
});

/** The URL to ask for `code` (upper-case, as every code inside the wallet is). */
export const priceUrl = (source: PriceSource, code: string): string =>
  source.url.replaceAll("{code}", encodeURIComponent(code));
