/**
 * People of the local world: profiles (kind 0) with a name, a picture on the world's Blossom server and a
 * lightning address on the world's LNURL service (paid through the world's lightning node), so search and
 * "pay a contact" have someone real to find. The seeded ones have fixed keys; more can be added.
 */
import { createHash } from "node:crypto";
import { nip19 } from "nostr-tools";
import { type Event, finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import type { LnurlService } from "../lnurl";
import { avatarPng } from "./avatar";
import type { BlossomServer } from "./blossom";
import type { NostrRelay } from "../../services/nostr/relay";

/** A new key of someone outside the wallet: the secret and its public key (hex). */
export const someone = (): { secret: Uint8Array; pubkey: string } => {
  const secret = generateSecretKey();
  return { secret, pubkey: getPublicKey(secret) };
};

export interface Person {
  readonly name: string;
  readonly display_name: string;
  readonly pubkey: string;
  readonly npub: string;
  readonly nsec: string;
  /** `name@host:port` on the world's LNURL service, or null when the world has none (the bare services). */
  readonly lud16: string | null;
  readonly picture: string;
}

export interface NewPerson {
  readonly name: string;
  readonly display_name?: string;
  readonly about?: string;
  /** A lightning address of one's own; by default one on the world's LNURL service. */
  readonly lud16?: string;
  /** A picture URL; by default a generated avatar on the world's Blossom server. */
  readonly picture?: string;
}

/** The seeded people, with fixed keys (the same npubs every start). */
export const SEEDED: readonly (NewPerson & { readonly follows: readonly string[]; readonly note: string })[] =
  [
    {
      name: "alicebtc",
      display_name: "Alice Lovelace",
      about: "Runs a node in her kitchen.",
      follows: ["bobsats", "carolnode"],
      note: "Channel open, coffee paid. Good morning, regtest.",
    },
    {
      name: "bobsats",
      display_name: "Bob Satoshi",
      about: "Stacking sats, one block at a time.",
      follows: ["alicebtc", "davehodl"],
      note: "Every sat counts.",
    },
    {
      name: "carolnode",
      display_name: "Carol Nodewell",
      about: "Routing payments since block 440.",
      follows: ["alicebtc", "erinzaps"],
      note: "Fees are low on my channels today.",
    },
    {
      name: "davehodl",
      display_name: "Dave Hodlman",
      about: "Not selling.",
      follows: ["bobsats"],
      note: "Still here.",
    },
    {
      name: "erinzaps",
      display_name: "Erin Zapata",
      about: "Zaps for good posts.",
      follows: ["alicebtc", "bobsats", "carolnode"],
      note: "Sent my first zap on the local world.",
    },
    {
      name: "frankminer",
      display_name: "Frank Miner",
      about: "Mines regtest blocks for fun.",
      follows: ["carolnode"],
      note: "Found another block.",
    },
  ];

/** The fixed secret key of a seeded person. */
export const seededKey = (name: string): Uint8Array =>
  new Uint8Array(createHash("sha256").update(`local-world nostr person ${name}`).digest());

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, 40) || "someone";

export class BadPerson extends Error {}

const optionalText = (v: unknown, what: string, max: number): string | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" || v.length > max)
    throw new BadPerson(`${what} must be text of at most ${max} characters`);
  return v;
};

/** A person from an HTTP body: `{name, display_name?, about?, lud16?, picture?}`. */
export const parseNewPerson = (b: Record<string, unknown>): NewPerson => {
  const name = typeof b.name === "string" ? b.name.trim() : "";
  if (name === "" || name.length > 64) throw new BadPerson("name is required (1 to 64 characters)");
  const lud16 = optionalText(b.lud16, "lud16", 200);
  if (lud16 !== undefined && !/^[^@\s]+@[^@\s]+$/.test(lud16))
    throw new BadPerson("lud16 must be name@domain");
  const picture = optionalText(b.picture, "picture", 2000);
  if (picture !== undefined && !/^https?:\/\//.test(picture))
    throw new BadPerson("picture must be an http(s) URL");
  const display_name = optionalText(b.display_name, "display_name", 100);
  const about = optionalText(b.about, "about", 1000);
  return {
    name,
    ...(display_name !== undefined ? { display_name } : {}),
    ...(about !== undefined ? { about } : {}),
    ...(lud16 !== undefined ? { lud16 } : {}),
    ...(picture !== undefined ? { picture } : {}),
  };
};

export interface People {
  readonly seeded: Person[];
  /** Adds a person (a new random key): profile published, lightning address and picture served. */
  readonly add: (p: NewPerson) => Person;
}

export const createPeople = (
  relay: NostrRelay,
  relayUrl: string,
  blossom: BlossomServer,
  lnurl: LnurlService | null,
): People => {
  const publish = (e: Event) => {
    const r = relay.publish(e);
    if (!r.ok) throw new Error(`The relay refused a seeded event: ${r.message}`);
  };

  const make = (p: NewPerson, sk: Uint8Array, createdAt: number): Person => {
    const slug = slugOf(p.name);
    const lud16 =
      p.lud16 ??
      lnurl?.addPay({
        name: slug,
        minSendable: 1_000n,
        maxSendable: 1_000_000_000n,
        description: `Pay ${p.display_name ?? p.name}`,
        commentAllowed: 140,
      }).address ??
      null;
    const picture = p.picture ?? blossom.put(avatarPng(p.name), "image/png").url;
    const display_name = p.display_name ?? p.name;
    const profile = {
      name: p.name,
      display_name,
      picture,
      ...(lud16 ? { lud16 } : {}),
      ...(p.about ? { about: p.about } : {}),
    };
    publish(
      finalizeEvent({ kind: 0, created_at: createdAt, tags: [], content: JSON.stringify(profile) }, sk),
    );
    const pubkey = getPublicKey(sk);
    return {
      name: p.name,
      display_name,
      pubkey,
      npub: nip19.npubEncode(pubkey),
      nsec: nip19.nsecEncode(sk),
      lud16,
      picture,
    };
  };

  // Seeded a day ago, so anything the owner publishes is newer.
  const t = Math.floor(Date.now() / 1000) - 86_400;
  const seeded = SEEDED.map((p, i) => make(p, seededKey(p.name), t + i));
  const byName = new Map(seeded.map((p) => [p.name, p]));
  for (const [i, p] of SEEDED.entries()) {
    const sk = seededKey(p.name);
    const follows = p.follows.flatMap((n) => {
      const f = byName.get(n);
      return f ? [["p", f.pubkey, relayUrl, n]] : [];
    });
    publish(finalizeEvent({ kind: 3, created_at: t + 100 + i, tags: follows, content: "" }, sk));
    publish(finalizeEvent({ kind: 1, created_at: t + 200 + i, tags: [], content: p.note }, sk));
  }
  return {
    seeded,
    add: (p) => make(p, generateSecretKey(), Math.floor(Date.now() / 1000)),
  };
};
