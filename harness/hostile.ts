/**
 * The local world's hostile mode: each service can be told to lie, hang or flood the way an attacker's server
 * would, so tests prove the wallet survives it. Hostility is scoped, so tests running side by side on one
 * world never see each other's lies: the Esplora API and the price feed answer dishonestly only under
 * `/hostile/<scope>/…` (the honest API stays at the root, for the world's own node and every other test), an
 * LNURL offer's scope is its name, the social-profile cache service lies under `/hostile/<scope>/primal`, the
 * relay under `ws://…/hostile/<scope>/nostr`, the HTTP LSP under `/hostile/<scope>/lsp`, the rapid gossip sync
 * server under `/hostile/<scope>/rgs/snapshot/`, and a Cashu mint lies only under `<mint URL>/hostile/<scope>`.
 *
 *   POST /hostile {"service": "esplora", "scope": "t1", "mode": "fee-spike"}   → {"service", "scope", "mode"}
 *   POST /hostile {"service": "esplora", "scope": "t1", "mode": null}          → back to honest
 *   GET  /hostile                                                             → every mode in force
 *
 * The modes are listed here; each service reads its own with `hostility.of(service, scope)` and acts on it.
 */
import { HttpError, parseJson, type RouteTable } from "./server";

export const HOSTILE_MODES = {
  esplora: [
    /** Output values multiplied far beyond what was paid. */
    "inflated-values",
    /** Output values below zero. */
    "negative-values",
    /** Claims a transaction paying the asker is confirmed when it is not on the chain. */
    "fake-confirmed",
    /** JSON answers cut off in the middle. */
    "malformed-json",
    /** Accepts the request and never answers. */
    "hang",
    /** Answers a byte at a time, slower than any sane timeout. */
    "slow-drip",
    /** Fee estimates of thousands of sat/vB. */
    "fee-spike",
    /** Fee estimates that are not numbers. */
    "non-numeric-fees",
    /** `POST /tx` answers 200 with an HTML page instead of the txid, and drops the transaction. */
    "broadcast-lie",
    /** `POST /tx` answers 400 with the `text` option (a refusal in the server's words, however long). */
    "broadcast-refused",
    /** `POST /tx` is accepted and never answered (the transaction is not taken); every read is honest. */
    "broadcast-hang",
  ],
  lnurl: [
    /** The callback's invoice is for another amount than asked. */
    "mismatched-amount",
    /** A second read of the pay service answers other metadata. */
    "second-read-differs",
    /** The pay service redirects to another host. */
    "redirect-other-host",
    /** The success action's URL is on another domain, or not https. */
    "foreign-success-url",
    /** A withdraw answers OK and never pays. */
    "withdraw-ok-unpaid",
    /** Accepts the request and never answers. */
    "never-answers",
    /** Answers 50 MB. */
    "huge-answer",
  ],
  price: [
    /** Prices of 1e308, 1e-300, zero, negative or not a number (the `value` option picks one). */
    "absurd",
  ],
  /** The social-profile cache service under `/hostile/<scope>/primal` (see `nostr/hostile-cache.ts`). */
  primal: [
    /** Answers a JSON object instead of an array. */
    "not-an-array",
    /** JSON cut off in the middle. */
    "malformed-json",
    /** Accepts the request and never answers. */
    "never-answers",
    /** Answers 50 MB. */
    "huge-answer",
    /** The honest events, profiles with an attacker's lightning address: their signatures no longer match. */
    "forged-events",
    /** Validly signed profiles, of someone other than who was asked for. */
    "wrong-person",
  ],
  /**
   * The nostr relay under `ws://…/hostile/<scope>/nostr`, and the cache service under `/hostile/<scope>/primal`
   * reading it (see `nostr/hostile-relay.ts`).
   */
  relay: [
    /** Zap receipts forged four ways besides the real ones (the `forms` option picks some). */
    "forged-receipts",
  ],
  /** The HTTP LSP under `/hostile/<scope>/lsp` (its API at `…/lsp/api/v1/`; see `harness/lsp.ts`). */
  lsp: [
    /** Accepts every request (info, fee, proposal) and never answers. */
    "never-answers",
    /** Answers every request with 50 MB of JSON. */
    "huge-answer",
  ],
  /** The storage server under `/hostile/<scope>/storage` (see `storage-lies.ts`). */
  storage: [
    /** Accepts every request and never answers. */
    "hang",
    /** Answers every call with bytes that are no protocol message. */
    "garbage",
    /** Answers every call with 40 MB. */
    "huge-answer",
    /** Answers every write 409 (a conflict); reads are honest. */
    "refuse-writes",
    /** Goes back to the state `POST /hostile/<scope>/storage-save` kept, then answers honestly. */
    "rollback",
    /** Goes back likewise, and lists a global version `by` (1,000) above the true one from then on. */
    "invented-versions",
  ],
  /** The rapid gossip sync server under `/hostile/<scope>/rgs/snapshot/<t>` (see `hostile-rgs.ts`). */
  rgs: [
    /** The snapshot's header and counts, then noise. */
    "garbage",
    /** Accepts the request and never answers. */
    "hang",
    /** A valid, newer snapshot of the same graph whose fees (of the `from` nodes) are `base` msat + `ppm`. */
    "absurd-fees",
  ],
  /** Under `<mint URL>/hostile/<scope>` (e.g. `/cashu/hostile/t1`): the same mint and ledger, answering so. */
  cashu: [
    /** Every blind signature carries a DLEQ proof that does not verify (the signature itself is good). */
    "bad-dleq",
    /** Blind signatures come without DLEQ proofs. */
    "no-dleq",
    /** A melt is carried out (paid, inputs spent, change signed) and then never answered. */
    "melt-no-answer",
    /** Accepts every request and never answers. */
    "never-answers",
    /** Melt quotes name a fee reserve of `reserve` sats (1,000 by default), all of which the mint keeps. */
    "huge-fee-reserve",
    /** Quotes for another amount than asked: mint invoices ask twice the amount, melt quotes twice the invoice's. */
    "wrong-amount",
    /** Melt quotes name (`request`) an invoice of the mint's own node, for the same amount, not the one asked. */
    "other-invoice",
    /**
     * Not a lie: the mint's info announces it stops serving at `at` (Unix seconds), to this scope's wallets
     * alone, so a test shows a mint shutting down without the others beside it seeing it.
     */
    "ending",
  ],
} as const;

export type HostileService = keyof typeof HOSTILE_MODES;
export type HostileMode<S extends HostileService = HostileService> = (typeof HOSTILE_MODES)[S][number];

export interface HostileSetting<S extends HostileService = HostileService> {
  readonly mode: HostileMode<S>;
  /** Extra knobs a mode may read (for example the absurd price's `value`). */
  readonly options: Readonly<Record<string, unknown>>;
}

/** Scopes are short names: letters, digits and dashes. */
export const SCOPE = /^[a-z0-9-]{1,40}$/;

export class Hostility {
  private readonly modes = new Map<string, HostileSetting>();

  /** The mode in force for `service` in `scope`, or null when it answers honestly. */
  of<S extends HostileService>(service: S, scope: string): HostileSetting<S> | null {
    return (this.modes.get(`${service}/${scope}`) as HostileSetting<S> | undefined) ?? null;
  }

  set<S extends HostileService>(
    service: S,
    scope: string,
    mode: HostileMode<S> | null,
    options: Record<string, unknown> = {},
  ) {
    if (mode === null) this.modes.delete(`${service}/${scope}`);
    else this.modes.set(`${service}/${scope}`, { mode, options });
  }

  clear() {
    this.modes.clear();
  }

  all(): Record<string, HostileSetting> {
    return Object.fromEntries(this.modes);
  }
}

const isService = (s: unknown): s is HostileService =>
  typeof s === "string" && Object.hasOwn(HOSTILE_MODES, s);

export const hostileRoutes = (h: Hostility): RouteTable => [
  ["GET", /^\/hostile$/, () => ({ json: h.all() })],
  [
    "POST",
    /^\/hostile$/,
    (_m, body) => {
      const { service, scope, mode, ...options } = parseJson(body);
      if (!isService(service))
        throw new HttpError(400, `service must be one of ${Object.keys(HOSTILE_MODES)}`);
      if (typeof scope !== "string" || !SCOPE.test(scope))
        throw new HttpError(400, "scope must be 1 to 40 lowercase letters, digits or dashes");
      const modes: readonly string[] = HOSTILE_MODES[service];
      if (mode !== null && (typeof mode !== "string" || !modes.includes(mode)))
        throw new HttpError(400, `mode must be null or one of ${modes.join(", ")}`);
      h.set(service, scope, mode as HostileMode | null, options);
      return { json: { service, scope, mode } };
    },
  ],
];
