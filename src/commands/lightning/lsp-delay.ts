/**
 * The owner's answer to an LSP that allows a shorter safety delay than the two weeks the wallet asks
 * (`delay-consent.ts`): accepting records it (`ln.delay_consented`, so it holds after a reload or a
 * restore) and the node, which LDK 0.1 gives one delay for every new channel, starts again asking it. It is
 * accepted only for the LSP in use and a delay no shorter than the floor; declining is doing nothing.
 * Here too: the words of an LSP's or a peer's refusal of the delay, and whether a change of LSP calls for
 * the node to start again with another delay.
 */
import { Effect } from "effect";
import {
  acceptable,
  type DelayConsents,
  delayDecision,
  delayFor,
} from "../../engine/lightning/delay-consent";
import { delayDays, MIN_TO_SELF_DELAY, WALLET_TO_SELF_DELAY } from "../../engine/lightning/delay";
import { newEvent } from "../../events/make";
import { type Handler, type Needs, outcome } from "../context";
import { InvalidInput, unexpected } from "../../errors";
import { nodeOf } from "./lightning";
import type { LightningPort } from "../../engine/lightning/live";
import { parsePeerAddress } from "../../engine/lightning/socket";

/** A delay below the floor: refused outright, whatever the owner would say. */
const tooShort = (max: number) =>
  new InvalidInput({
    message: `The LSP allows a safety delay of at most ${max} blocks, less than the ${MIN_TO_SELF_DELAY} (about a day) the wallet needs at the least: a cheat could go unnoticed overnight. Receive on-chain, or choose another LSP.`,
    key: "receive.error_lsp_delay_too_short",
    values: { max: String(max), min: String(MIN_TO_SELF_DELAY) },
  });

/**
 * An LSP's offers allow at most `maxDelay` blocks where the wallet asked `asked.delay` of it: what that
 * means for the owner (how long the wallet may then stay closed without a watchtower), with what the receive
 * screen needs to offer accepting it (`lsp`, `max`); or, below the floor, a refusal with nothing to accept.
 */
export const delayRefusal = (maxDelay: number, asked: { readonly lsp: string; readonly delay: number }) => {
  if (delayDecision(asked.delay, maxDelay) === "too_short") return tooShort(maxDelay);
  const values = {
    max: String(maxDelay),
    days: String(delayDays(maxDelay)),
    delay: String(asked.delay),
    delay_days: String(delayDays(asked.delay)),
    lsp: asked.lsp,
  };
  return new InvalidInput({
    message: `The LSP allows a safety delay of at most ${values.max} blocks (about ${values.days} days); the wallet asks for ${values.delay} (about ${values.delay_days} days). With the shorter delay, the wallet may stay closed for only about ${values.days} days without a watchtower: a channel partner that published an old state while it stayed closed longer could keep your channel's funds. Accept the LSP's delay, receive on-chain, or choose another LSP.`,
    key: "receive.error_lsp_delay_refused",
    values,
  });
};

export const acceptLspDelay: Handler<"AcceptLspDelay"> = (cmd, ctx) =>
  Effect.gen(function* () {
    if (cmd.blocks >= WALLET_TO_SELF_DELAY) return outcome(null);
    if (!acceptable(cmd.blocks)) return yield* Effect.fail(tooShort(cmd.blocks));
    const ln = yield* nodeOf(ctx);
    // Only the LSP the wallet uses now: a delay accepted for it says nothing of another.
    if (ln.lsps2()?.lsp.pubkey !== cmd.lsp)
      return yield* Effect.fail(
        new InvalidInput({
          message: "This is no longer your lightning provider: ask for the payment again.",
          key: "receive.error_lsp_delay_other_lsp",
        }),
      );
    const l = ctx.lifecycle;
    if (!l) return yield* Effect.fail(unexpected(new Error("This command runs in the wallet's host.")));
    // The node starts again once the consent is in the log (the lightning attachment's startsEngines).
    yield* Effect.promise(() => l.stopEngines(["lightning"]));
    return outcome(null, [newEvent("ln.delay_consented", { lsp: cmd.lsp, blocks: cmd.blocks })]);
  });

/** LDK's words when a peer refuses the delay asked in our open_channel: "… Upper limit: 1008. Actual: 2016". */
const PEER_REFUSED_DELAY = /delayed by a needlessly long period\. Upper limit: (\d{1,5})\. Actual: (\d{1,5})/;

/**
 * A channel open the peer refused for the delay the wallet asked, in words (how long the peer allows, what
 * the wallet asks, that nothing was spent); null for any other reason. The open is not tried with less.
 */
export const openDelayRefusal = (reason: string) => {
  const m = PEER_REFUSED_DELAY.exec(reason);
  if (!m?.[1] || !m[2]) return null;
  const [max, delay] = [Number(m[1]), Number(m[2])];
  const values = {
    max: String(max),
    days: String(delayDays(max)),
    delay: String(delay),
    delay_days: String(delayDays(delay)),
  };
  return new InvalidInput({
    message: `The peer accepts a safety delay of at most ${values.max} blocks (about ${values.days} days); the wallet asks for ${values.delay} (about ${values.delay_days} days) so that its channels stay safe while it is closed. Nothing was spent. Open the channel with another peer, or receive through your lightning provider.`,
    key: "swap.error_open_delay_refused",
    values,
  });
};

/**
 * Whether the running node asks another delay than its LSP now calls for (the LSP changed): a delay
 * accepted for one LSP is never asked of another, nor two weeks kept from one the owner accepted less for.
 */
export const delayStale = (ln: LightningPort, consents: DelayConsents): boolean => {
  const s = ln.lspSettings();
  const peer = s.connectionString ? (parsePeerAddress(s.connectionString)?.pubkey ?? null) : null;
  return ln.toSelfDelay !== delayFor(consents, peer);
};

export const lspDelayHandlers = { AcceptLspDelay: acceptLspDelay };

export const lspDelayNeeds: Needs = { AcceptLspDelay: "lightning" };
