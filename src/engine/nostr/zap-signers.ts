/**
 * Who may sign a person's zap receipts (NIP-57 appendix F): the `nostrPubkey` their LNURL pay server names.
 * Read from the person's lightning address (lud16) or LNURL (lud06) with the bounded LNURL client, and kept per
 * person and address for a while, so the friends tab asks each server once; a server that fails or does not
 * take zaps names no one, and that person's receipts are not shown.
 */
import { fetchParams } from "../lnurl/client";
import { boundedFetch, type FetchFn, type RequestLimits } from "../http/bounded";
import { decodeLightningAddress } from "../parse/lightning-address";
import { jsonOrNull } from "../parse/json";

/** One read of a pay server: a short deadline (the friends tab waits on it) and no image-laden metadata. */
export const ZAP_SIGNER_LIMITS = { timeoutMs: 8_000, maxBytes: 128_000 } as const;
/** How long an answer is kept: a server's key, and (shorter) a failure, so a silent server costs one wait. */
export const SIGNER_TTL_MS = 10 * 60_000;
export const FAILURE_TTL_MS = 60_000;
/** People remembered at most, and pay servers read at once. */
export const MAX_REMEMBERED = 2_000;
const AT_ONCE = 16;

/** A profile's way to be paid: `lud16` (name@domain) or `lud06` (bech32 LNURL), lud16 first. */
export const payAddressOf = (profileContent: string): string | null => {
  const c = jsonOrNull(profileContent);
  if (typeof c !== "object" || c === null) return null;
  const o = c as Record<string, unknown>;
  for (const k of ["lud16", "lud06"]) {
    const v = o[k];
    if (typeof v === "string" && v.trim() !== "" && v.length <= 2_000) return v.trim();
  }
  return null;
};

/** The pay server's nostrPubkey for `address`, or null (not a pay server, no zaps, unreachable). */
export const zapSignerAt = async (fetchFn: FetchFn, address: string): Promise<string | null> => {
  const lnurl = address.includes("@") ? decodeLightningAddress(address)?.url : address;
  if (!lnurl) return null;
  try {
    const p = await fetchParams((input, init) => fetchFn(input, init), lnurl);
    return p.tag === "payRequest" ? p.nostrPubkey : null;
  } catch {
    return null;
  }
};

export class ZapSigners {
  private readonly known = new Map<string, { signer: string | null; until: number }>();
  private readonly fetchFn: FetchFn;

  constructor(
    fetchFn: FetchFn,
    limits: RequestLimits = ZAP_SIGNER_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.fetchFn = boundedFetch(fetchFn, limits);
  }

  /** For each person (hex key → pay address), the key that signs their receipts; those without one are left out. */
  async of(payTo: ReadonlyMap<string, string>): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const asked = [...payTo.entries()];
    for (let i = 0; i < asked.length; i += AT_ONCE) {
      const signers = await Promise.all(asked.slice(i, i + AT_ONCE).map(([p, a]) => this.one(p, a)));
      signers.forEach((s, j) => {
        const person = asked[i + j]?.[0];
        if (s !== null && person !== undefined) out.set(person, s);
      });
    }
    return out;
  }

  private async one(person: string, address: string): Promise<string | null> {
    const key = `${person} ${address}`;
    const held = this.known.get(key);
    if (held && held.until > this.now()) return held.signer;
    const signer = await zapSignerAt(this.fetchFn, address);
    this.known.delete(key);
    if (this.known.size >= MAX_REMEMBERED) {
      const oldest = this.known.keys().next().value;
      if (oldest !== undefined) this.known.delete(oldest);
    }
    this.known.set(key, { signer, until: this.now() + (signer === null ? FAILURE_TTL_MS : SIGNER_TTL_MS) });
    return signer;
  }
}
