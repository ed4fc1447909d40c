import fc from "fast-check";
import { npubEncode, noteEncode } from "nostr-tools/nip19";
import { describe, expect, it } from "vitest";
import { contactFormErrors } from "../src/commands/nostr/contact-form";
import { applyFollows, followedKeys } from "../src/engine/nostr/follows";

const hexKey = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString("hex"));
const validNpub = hexKey.map((h) => npubEncode(h));
const blank = fc.constantFrom("", " ", "\t", "  \n ");
const name = fc.string({ minLength: 1 }).filter((s) => s.trim() !== "");
const lnName = fc.stringMatching(/^[a-z0-9._+-]{1,20}$/);
const domain = fc.constantFrom(
  "example.com",
  "getalby.com",
  "127.0.0.1:3002",
  "localhost:8080",
  "pay.sub.example.org",
);
const lnAddress = fc
  .tuple(lnName, domain, fc.boolean())
  .map(([n, d, upper]) => (upper ? `${n}@${d}`.toUpperCase() : `${n}@${d}`));
/** Text that is no lightning address: no `@`, two of them, or nothing before or after it. */
const notLnAddress = fc.oneof(
  fc.string().filter((s) => s.trim() !== "" && !s.includes("@")),
  fc.tuple(lnName, lnName).map(([a, b]) => `${a}@@${b}.com`),
  lnName.map((n) => `${n}@`),
  fc.constantFrom("@example.com", "a b@example.com", "alice@exa mple.com", "alice@-bad-.com"),
);
/** Filled npub fields that are no npub: random text, other bech32 kinds, a broken checksum. */
const notNpub = fc.oneof(
  fc.string().filter((s) => s.trim() !== "" && !s.trim().startsWith("npub1")),
  hexKey,
  hexKey.map((h) => noteEncode(h)),
  validNpub.map((n) => `${n.slice(0, -1)}${n.endsWith("q") ? "p" : "q"}`),
  validNpub.map((n) => n.slice(0, 20)),
);
const pad = (s: fc.Arbitrary<string>) =>
  fc.tuple(fc.constantFrom("", " ", "  "), s, fc.constantFrom("", " ", "\t")).map(([a, b, c]) => a + b + c);

describe("contact form rules (spec 1 §5, spec 2 §5)", () => {
  it("accepts a name, a lightning address and an empty or valid npub, however padded", () => {
    fc.assert(
      fc.property(name, pad(lnAddress), fc.oneof(blank, pad(validNpub)), (n, ln, npub) => {
        expect(contactFormErrors({ name: n, ln_address: ln, npub })).toEqual({});
      }),
    );
  });

  it("a blank name is contacts.error_name, whatever else is filled", () => {
    fc.assert(
      fc.property(blank, fc.string(), fc.string(), (n, ln, npub) => {
        expect(contactFormErrors({ name: n, ln_address: ln, npub }).name).toBe("contacts.error_name");
      }),
    );
  });

  it("a blank lightning address is missing; one that is no address is contacts.email_error", () => {
    fc.assert(
      fc.property(name, blank, notLnAddress, (n, empty, bad) => {
        expect(contactFormErrors({ name: n, ln_address: empty, npub: "" }).ln_address).toBe(
          "contacts.error_ln_address_missing",
        );
        expect(contactFormErrors({ name: n, ln_address: bad, npub: "" }).ln_address).toBe(
          "contacts.email_error",
        );
        // A profile's contact may lack an address, never carry a broken one.
        expect(
          contactFormErrors({ name: n, ln_address: empty, npub: "" }, { lnAddressRequired: false }),
        ).toEqual({});
        expect(
          contactFormErrors({ name: n, ln_address: bad, npub: "" }, { lnAddressRequired: false }).ln_address,
        ).toBe("contacts.email_error");
      }),
    );
  });

  it("a filled npub that fails the npub check is contacts.npub_error, and only that field fails", () => {
    fc.assert(
      fc.property(name, lnAddress, notNpub, (n, ln, npub) => {
        expect(contactFormErrors({ name: n, ln_address: ln, npub })).toEqual({ npub: "contacts.npub_error" });
      }),
    );
  });

  it("never throws, and reports only the three fields with the catalogue's keys", () => {
    const keys = [
      "contacts.error_name",
      "contacts.error_ln_address_missing",
      "contacts.email_error",
      "contacts.npub_error",
    ];
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), fc.boolean(), (n, ln, npub, required) => {
        const errors = contactFormErrors({ name: n, ln_address: ln, npub }, { lnAddressRequired: required });
        for (const [field, key] of Object.entries(errors)) {
          expect(["name", "ln_address", "npub"]).toContain(field);
          expect(keys).toContain(key);
        }
      }),
    );
  });
});

/** Tags another client may have written: p tags with and without relay hints and petnames, and others. */
const foreignTag = fc.oneof(
  hexKey.map((k) => ["p", k]),
  fc.tuple(hexKey, fc.webUrl(), fc.string()).map(([k, r, petname]) => ["p", k, r, petname]),
  fc.tuple(hexKey, fc.constant("")).map(([k, r]) => ["p", k, r]),
  fc.array(fc.string(), { minLength: 0, maxLength: 4 }),
  fc.tuple(fc.constantFrom("t", "e", "a", "P"), fc.string()).map(([t, v]) => [t, v]),
);
const keyOfTag = (t: readonly string[]) => (t[0] === "p" ? t[1]?.toLowerCase() : undefined);

describe("kind 3 follow list edits (NIP-02)", () => {
  it("every entry not unfollowed survives unchanged and in order; followed keys are present once", () => {
    fc.assert(
      fc.property(
        fc.array(foreignTag, { maxLength: 30 }),
        fc.array(hexKey, { maxLength: 5 }),
        fc.array(hexKey, { maxLength: 5 }),
        (tags, follow, unfollowRaw) => {
          // Unfollow some keys of the list itself as well as unknown ones.
          const unfollow = [
            ...unfollowRaw,
            ...tags.filter((_, i) => i % 3 === 0).flatMap((t) => keyOfTag(t) ?? []),
          ];
          const out = applyFollows(tags, follow, unfollow);
          const dropped = new Set(unfollow.map((k) => k.toLowerCase()));
          const kept = tags.filter((t) => !dropped.has(keyOfTag(t) ?? "\u0000"));
          expect(out.slice(0, kept.length)).toEqual(kept);
          for (const k of follow) {
            if (dropped.has(k)) expect(followedKeys(out)).not.toContain(k);
            else expect(out.filter((t) => keyOfTag(t) === k).length).toBeGreaterThanOrEqual(1);
          }
          for (const k of dropped) expect(out.some((t) => keyOfTag(t) === k)).toBe(false);
          // The input is never changed in place.
          expect(tags).toEqual(tags.map((t) => [...t]));
        },
      ),
    );
  });

  it("following a new key then unfollowing it is the identity on the list", () => {
    fc.assert(
      fc.property(fc.array(foreignTag, { maxLength: 30 }), hexKey, (tags, key) => {
        fc.pre(!tags.some((t) => keyOfTag(t) === key));
        const followed = applyFollows(tags, [key], []);
        expect(followed.at(-1)).toEqual(["p", key]);
        expect(applyFollows(followed, [], [key])).toEqual(tags);
      }),
    );
  });

  it("following a key already there keeps its relay hint and petname", () => {
    fc.assert(
      fc.property(
        fc.array(foreignTag, { maxLength: 10 }),
        hexKey,
        fc.webUrl(),
        fc.string(),
        (tags, key, relay, pet) => {
          const list = [...tags, ["p", key, relay, pet]];
          expect(applyFollows(list, [key, key.toUpperCase()], [])).toEqual(list);
        },
      ),
    );
  });

  it("a key that is not 64 hex digits is never added", () => {
    fc.assert(
      fc.property(
        fc.array(foreignTag, { maxLength: 10 }),
        fc.string().filter((s) => !/^[0-9a-fA-F]{64}$/.test(s)),
        (tags, bad) => {
          expect(applyFollows(tags, [bad], [])).toEqual(tags);
        },
      ),
    );
  });
});
