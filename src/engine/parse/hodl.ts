/**
 * Payment providers whose invoices are held (hodl invoices): the payment stays pending until the provider
 * settles, tying up the payer's channel. Paying them gets a warning, and zaps to them are made only when the
 * owner turned on zaps to hodl-invoice providers (settings → admin).
 */
export const HODL_INVOICE_HOSTS = ["zeuspay.com"];

const safeHost = (url: string): string | null => {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
};

/** Whether `host` is (a subdomain of) a hodl-invoice provider. */
export const isHodlHost = (host: string | null): boolean =>
  host !== null && HODL_INVOICE_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));

/** Whether the lightning address or LNURL (a URL) is at a hodl-invoice provider. */
export const isHodlDestination = (lightningAddress: string | null, lnurl: string | null): boolean =>
  isHodlHost(lightningAddress?.split("@")[1]?.toLowerCase() ?? (lnurl ? safeHost(lnurl) : null));
