/**
 * BIP21 / BIP321 `bitcoin:` URIs: building one for the receive screen's QR code and reading one that was
 * scanned or pasted. Amounts are BTC decimal strings in the URI and bigint sats here.
 */
import { isPossibleSats } from "../../money";
import { btcToSats, satsToBtc } from "./amount";

/** What a receive request puts in a `bitcoin:` URI. An empty address is allowed when `lightning` is set. */
export interface Bip21Fields {
  readonly address: string;
  readonly amountSats?: bigint | null;
  readonly label?: string | null;
  readonly message?: string | null;
  readonly lightning?: string | null;
}

/** A `bitcoin:` URI as read. Keys of `params` are lower-case; values are percent-decoded. */
export interface Bip21 {
  readonly address: string;
  readonly amountSats: bigint | null;
  readonly label: string | null;
  readonly message: string | null;
  readonly lightning: string | null;
  /** The BIP78 / BIP77 payjoin endpoint (`pj=`), when the receiver offers one. */
  readonly payjoin: string | null;
  readonly params: Readonly<Record<string, string>>;
}

/** Parameters this wallet understands, so a `req-` form of them does not make the URI unusable. */
const UNDERSTOOD_REQUIRED = new Set(["req-pj"]);

/** Parameters BIP321 lets stand in for the address. */
const ADDRESS_STAND_INS = ["lightning", "lno", "sp"];

const UNRESERVED = /[A-Za-z0-9\-_.~]/;

/** Percent-encodes every byte of the UTF-8 text except RFC 3986 unreserved characters. */
const percentEncode = (text: string): string => {
  let out = "";
  for (const byte of new TextEncoder().encode(text)) {
    const char = String.fromCharCode(byte);
    out += UNRESERVED.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
};

const percentDecode = (text: string): string | null => {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
};

/** Builds `bitcoin:<address>?amount=…&label=…&message=…&lightning=…`, leaving out absent fields. */
export const encodeBip21 = (fields: Bip21Fields): string => {
  const params: string[] = [];
  if (fields.amountSats !== undefined && fields.amountSats !== null) {
    params.push(`amount=${satsToBtc(fields.amountSats)}`);
  }
  if (fields.label) params.push(`label=${percentEncode(fields.label)}`);
  if (fields.message) params.push(`message=${percentEncode(fields.message)}`);
  if (fields.lightning) params.push(`lightning=${percentEncode(fields.lightning)}`);
  return `bitcoin:${fields.address}${params.length > 0 ? `?${params.join("&")}` : ""}`;
};

/**
 * Reads a `bitcoin:` URI (scheme in any case). The address is only checked to be alphanumeric: whether it
 * is a valid address, and for which network, is the caller's question. Null when it is not such a URI,
 * when its amount is not a valid BTC amount or given twice, or when it requires (`req-`) a parameter this
 * wallet does not understand.
 */
export const decodeBip21 = (uri: string): Bip21 | null => {
  const text = uri.trim();
  if (text.slice(0, 8).toLowerCase() !== "bitcoin:") return null;
  const rest = text.slice(8).replace(/^\/\//, "");
  const queryAt = rest.indexOf("?");
  const rawAddress = queryAt === -1 ? rest : rest.slice(0, queryAt);
  const query = queryAt === -1 ? "" : rest.slice(queryAt + 1);

  const params: Record<string, string> = {};
  let amountSats: bigint | null = null;
  for (const pair of query.split("&")) {
    if (pair === "") continue;
    const equalsAt = pair.indexOf("=");
    const key = percentDecode(equalsAt === -1 ? pair : pair.slice(0, equalsAt))?.toLowerCase();
    const value = percentDecode(equalsAt === -1 ? "" : pair.slice(equalsAt + 1));
    if (key === undefined || key === "" || value === null) return null;
    if (key === "amount") {
      if (amountSats !== null) return null;
      amountSats = btcToSats(value);
      if (amountSats === null || !isPossibleSats(amountSats)) return null;
    } else if (key.startsWith("req-") && !UNDERSTOOD_REQUIRED.has(key)) {
      return null;
    }
    if (!(key in params)) params[key] = value;
  }

  if (!/^[A-Za-z0-9]*$/.test(rawAddress)) return null;
  if (rawAddress === "" && !ADDRESS_STAND_INS.some((key) => params[key])) return null;

  return {
    address: rawAddress,
    amountSats,
    label: params.label ?? null,
    message: params.message ?? null,
    lightning: params.lightning || null,
    payjoin: params.pj || params["req-pj"] || null,
    params,
  };
};
