/**
 * The relay lying as an attacker's would, for one hostile scope (`POST /hostile {"service":"relay","scope",
 * "mode"}`): under `ws://…/hostile/<scope>/nostr`, and through the cache service under
 * `/hostile/<scope>/primal` (which then reads that scope's relay), the stored events come with lies mixed in.
 *
 * `forged-receipts`: every question for zap receipts (kind 9735) to someone (`#p`) is answered with forged
 * receipts to them besides the real ones, each form a different lie (the `forms` option picks some, all by
 * default):
 *   random-signer      "Alice Lovelace" zaps 5,000,000 sats, "Great post!", the receipt signed by a random key
 *   mismatched-amount  signed by the world's LNURL service key; the request asked 21 sats, the invoice is for
 *                      2,100,000
 *   description-hash   signed by the world's LNURL service key; the invoice commits to another request
 *   phishing           "from your bank: re-enter your seed at https://phish.example", 2,100,000,000,000,000
 *                      sats, signed by a random key
 * Questions for Alice's profile (kind 0) get a validly signed one, so the lie reads well.
 */
import { createHash } from "node:crypto";
import { sha256 } from "@noble/hashes/sha2.js";
import { utf8 } from "@scure/base";
import type { Filter } from "nostr-tools/filter";
import { makeZapReceipt, makeZapRequest } from "nostr-tools/nip57";
import { type Event, finalizeEvent, generateSecretKey, getPublicKey } from "nostr-tools/pure";
import { signInvoice } from "../bolt11-sign";
import type { HostileSetting } from "../hostile";

export const FORGED_FORMS = ["random-signer", "mismatched-amount", "description-hash", "phishing"] as const;
export type ForgedForm = (typeof FORGED_FORMS)[number];

/** The pretend sender of the forged zaps, with a validly signed profile. */
export const ALICE_SECRET = new Uint8Array(
  createHash("sha256").update("local-world alice lovelace").digest(),
);
export const ALICE = getPublicKey(ALICE_SECRET);
export const PHISHING_TEXT = "from your bank: re-enter your seed at https://phish.example/restore";

const aliceProfile = (): Event =>
  finalizeEvent(
    {
      kind: 0,
      created_at: Math.floor(Date.now() / 1000) - 60,
      tags: [],
      content: JSON.stringify({ name: "alice", display_name: "Alice Lovelace" }),
    },
    ALICE_SECRET,
  );

const request = (to: string, msat: bigint, comment: string, sender: Uint8Array, at: number) =>
  JSON.stringify(
    finalizeEvent(
      {
        ...makeZapRequest({ pubkey: to, amount: Number(msat), comment, relays: ["ws://127.0.0.1:1/nostr"] }),
        created_at: at,
      },
      sender,
    ),
  );

const receipt = (zapRequest: string, bolt11: string, at: number, signer: Uint8Array): Event =>
  finalizeEvent(makeZapReceipt({ zapRequest, bolt11, paidAt: new Date(at * 1000) }), signer);

/** One forged receipt to `to` of each form asked; `serviceKey` is the key the world's LNURL service signs with. */
export const forgedReceipts = (
  to: string,
  forms: readonly ForgedForm[],
  serviceKey: Uint8Array | null,
): Event[] => {
  const at = Math.floor(Date.now() / 1000) - 30;
  const signer = serviceKey ?? generateSecretKey();
  return forms.map((form): Event => {
    switch (form) {
      case "random-signer": {
        const r = request(to, 5_000_000_000n, "Great post!", ALICE_SECRET, at);
        const bolt11 = signInvoice({ msat: 5_000_000_000n, descriptionHash: sha256(utf8.decode(r)) });
        return receipt(r, bolt11, at, generateSecretKey());
      }
      case "mismatched-amount": {
        const r = request(to, 21_000n, "Great post!", ALICE_SECRET, at + 1);
        const bolt11 = signInvoice({ msat: 2_100_000_000n, descriptionHash: sha256(utf8.decode(r)) });
        return receipt(r, bolt11, at + 1, signer);
      }
      case "description-hash": {
        const r = request(to, 7_000_000n, "Great post!", ALICE_SECRET, at + 2);
        const other = request(to, 7_000_000n, "another request", ALICE_SECRET, at + 2);
        const bolt11 = signInvoice({ msat: 7_000_000n, descriptionHash: sha256(utf8.decode(other)) });
        return receipt(r, bolt11, at + 2, signer);
      }
      default: {
        const msat = 2_100_000_000_000_000_000n;
        const r = request(to, msat, PHISHING_TEXT, generateSecretKey(), at + 3);
        const bolt11 = signInvoice({ msat, descriptionHash: sha256(utf8.decode(r)) });
        return receipt(r, bolt11, at + 3, generateSecretKey());
      }
    }
  });
};

const formsOf = (options: Readonly<Record<string, unknown>>): ForgedForm[] => {
  const asked = options.forms;
  if (!Array.isArray(asked)) return [...FORGED_FORMS];
  return FORGED_FORMS.filter((f) => asked.includes(f));
};

/** The lies a relay in `setting` adds to its answer to `filters`. */
export const liesFor = (
  setting: HostileSetting<"relay">,
  filters: readonly Filter[],
  serviceKey: Uint8Array | null,
): Event[] => {
  if (setting.mode !== "forged-receipts") return [];
  const forms = formsOf(setting.options);
  const out: Event[] = [];
  for (const f of filters) {
    if (f.kinds?.includes(9735))
      for (const to of (f["#p"] ?? []).slice(0, 100)) out.push(...forgedReceipts(to, forms, serviceKey));
    if (f.kinds?.includes(0) && (f.authors === undefined || f.authors.includes(ALICE)))
      out.push(aliceProfile());
  }
  return out;
};
