/**
 * Federations settings beyond joining and moving ecash (spec 2): the owner's NIP-87 recommendation of a
 * custodian (kind 38000, signed in the worker and queued in the log like every nostr event the wallet
 * publishes, so it reaches the wallet's relays once one is reachable) and its withdrawal (a NIP-09
 * deletion), and reading each mint's info again so its name, messages and end date stay current.
 */
import { Effect } from "effect";
import { finalizeEvent } from "nostr-tools/pure";
import type { MintDescription } from "../../engine/ecash/cashu/info";
import { type NewEvent, newEvent } from "../../events/make";
import {
  DELETION_KIND,
  RECOMMENDATION_KIND,
  recommendationAddress,
  recommendationTags,
  withdrawalTags,
} from "../../events/nip87";
import { joinedCustodians } from "../../projections/ecash";
import { connectFailed, noFederation } from "./common";
import { ownRecommendation } from "../../projections/nostr";
import type { CommandTag } from "../command";
import { type Handler, type HandlerContext, type Needs, outcome } from "../context";
import { identityEvents, type Key, keyInUse, queued } from "../nostr";

/** Signed now, and after the recommendation it replaces or deletes (two taps in one second both count). */
const signed = (ctx: HandlerContext, key: Key, kind: number, tags: string[][], after: number | null) =>
  finalizeEvent(
    {
      kind,
      content: "",
      tags,
      created_at: Math.max(Math.floor(ctx.stamp.now() / 1000), after === null ? 0 : after + 1),
    },
    key.secret,
  );

export const recommendFederation: Handler<"RecommendFederation"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const c = ctx.states.ecash.custodians.get(cmd.federationId);
    if (!c?.joined) return yield* Effect.fail(noFederation());
    const key = yield* keyInUse(ctx);
    const mine = ctx.states.nostr.identity?.pubkey === key.pubkey;
    const previous = mine ? ownRecommendation(ctx.states.nostr, c.mint) : null;
    const identity = identityEvents(ctx, key);
    if (cmd.recommend) {
      const tags = recommendationTags({ kind: c.kind, id: c.mint, invite: c.invite, network: ctx.network });
      // After the last one and after its last withdrawal, or the relays (and the fold) would drop it.
      const withdrawn = ctx.states.nostr.withdrawn.get(recommendationAddress(key.pubkey, c.mint));
      const after = Math.max(previous?.created_at ?? -1, withdrawn ?? -1);
      const event = signed(ctx, key, RECOMMENDATION_KIND, tags, after < 0 ? null : after);
      return outcome(null, [...identity, queued(event)]);
    }
    // Nothing recommended: nothing to withdraw.
    if (!previous) return outcome(null, identity);
    const tags = withdrawalTags(key.pubkey, c.mint, previous.id);
    return outcome(null, [...identity, queued(signed(ctx, key, DELETION_KIND, tags, previous.created_at))]);
  });

/** The info event for what `d` says now of custodian `mint`, or null when nothing changed. */
export const infoChange = (
  c: {
    readonly mint: string;
    readonly name: string;
    readonly welcome: string;
    readonly expires_at: number | null;
    readonly motd: string | null;
    readonly max_receive: bigint | null;
  },
  d: MintDescription,
): NewEvent | null =>
  c.name === d.name &&
  c.welcome === d.welcome &&
  c.expires_at === d.expiresAt &&
  c.motd === d.motd &&
  c.max_receive === d.maxReceiveSats
    ? null
    : newEvent("ecash.info", {
        mint: c.mint,
        name: d.name.slice(0, 500),
        welcome: d.welcome.slice(0, 4000),
        expires_at: d.expiresAt,
        motd: d.motd,
        max_receive: d.maxReceiveSats === null ? null : d.maxReceiveSats.toString(),
      });

/** Every joined mint's info read again (bounded, schema-checked); a mint that does not answer is left as it was. */
export const refreshEcashInfo: Handler<"RefreshEcashInfo"> = (_cmd, ctx) =>
  Effect.gen(function* () {
    const mints = joinedCustodians(ctx.states.ecash)
      .filter((c) => c.kind === "cashu")
      .map((c) => c.mint);
    if (mints.length === 0) return outcome({ changed: 0 });
    const fetchFn = ctx.fetch;
    if (!fetchFn) return yield* Effect.fail(connectFailed());
    const read = yield* ctx.outside(
      Effect.promise(async () => {
        const { describeMint } = await import("../../engine/ecash/cashu/info");
        return Promise.all(mints.map((m) => describeMint(fetchFn, m).catch(() => null)));
      }),
    );
    // Decided on the log as it is after the reads (a mint may have been removed meanwhile).
    const events: NewEvent[] = [];
    mints.forEach((m, i) => {
      const c = ctx.states.ecash.custodians.get(m);
      const d = read[i];
      if (!c?.joined || !d || d.url !== m) return;
      const e = infoChange(c, d);
      if (e) events.push(e);
    });
    return outcome({ changed: events.length }, events);
  });

export const federationsHandlers = {
  RecommendFederation: recommendFederation,
  RefreshEcashInfo: refreshEcashInfo,
} satisfies { readonly [K in CommandTag]?: Handler<K> };

export const federationsNeeds: Needs = { RecommendFederation: "seed" };
