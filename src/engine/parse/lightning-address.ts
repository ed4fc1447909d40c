/** Lightning addresses (LUD-16): `name@domain`, served as LNURL-pay at a well-known path of the domain. */
import { schemeFor } from "./hosts";

export interface LightningAddress {
  /** Lower case `name@domain`. */
  readonly address: string;
  /** The LNURL-pay endpoint: `https://<domain>/.well-known/lnurlp/<name>`. */
  readonly url: string;
}

const NAME = /^[a-z0-9\-_.+]+$/;
const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const DOMAIN = new RegExp(
  `^(?:(?:${LABEL}\\.)+[a-z][a-z0-9-]*[a-z0-9]|localhost|\\d{1,3}(?:\\.\\d{1,3}){3})(?::(\\d{1,5}))?$`,
);

/** Reads `name@domain` (any case, e-mail style), or null when it is not a lightning address. */
export const decodeLightningAddress = (text: string): LightningAddress | null => {
  const lower = text.toLowerCase();
  const at = lower.indexOf("@");
  if (at <= 0 || at !== lower.lastIndexOf("@")) return null;
  const name = lower.slice(0, at);
  const domain = lower.slice(at + 1);
  if (name.length > 64 || domain.length > 253 || !NAME.test(name)) return null;
  const match = DOMAIN.exec(domain);
  if (match === null) return null;
  const port = match[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) return null;
  const hostname = domain.split(":", 1)[0] ?? domain;
  return { address: lower, url: `${schemeFor(hostname)}//${domain}/.well-known/lnurlp/${name}` };
};
