/**
 * Feedback (spec 2): the owner's form goes to the feedback service from the worker, with the node's logs
 * when asked for, cut of every secret the wallet holds first. A refusal is feedback.error with the
 * service's status text, or 'try again' when it gave none.
 */
import { Effect } from "effect";
import { boundedFetch, globalFetch } from "../../engine/http/bounded";
import { FeedbackRefused, sendFeedback } from "../../engine/feedback/send";
import { secretsOfWords } from "../../engine/keys/held-secrets";
import { nwcKeys } from "../../engine/nwc/keys";
import { hex } from "@scure/base";
import { crdtProjection } from "../../projections/crdt";
import { nwcIndexesOf } from "../../projections/nwc";
import { InvalidInput, ServerUnavailable } from "../../errors";
import { type HeldSecrets, redactLines } from "../../security/redact";
import type { States } from "../../projections";
import { type Handler, type HandlerContext, outcome } from "../context";

/** The form and its images within 30 s; the answer is a few bytes. */
export const FEEDBACK_LIMITS = { timeoutMs: 30_000, maxBytes: 16_000 } as const;
const http = boundedFetch(globalFetch, FEEDBACK_LIMITS);

/** At most this many images of at most 5 MB each. */
export const MAX_IMAGES = 4;
export const MAX_IMAGE_BYTES = 5_000_000;

/** The preimages the wallet knows (of payments it made or received). */
export const preimagesOf = (states: States): string[] =>
  [...states.lightning.payments.values()].flatMap((p) => (p.preimage ? [p.preimage] : []));

/** The wallet-connect keys of every connection (and the subscription's, index 0), as hex. */
export const connectionSecretsOf = (mnemonic: string, indexes: readonly number[]): string[] =>
  [...new Set([0, ...indexes])].flatMap((i) => {
    const k = nwcKeys(mnemonic, i);
    return [hex.encode(k.serviceSecret), hex.encode(k.clientSecret)];
  });

/**
 * The secrets the wallet holds now: from its words when unlocked (keys, and each connection's wallet-connect
 * keys), and its preimages always.
 */
export const heldSecrets = (ctx: HandlerContext): Effect.Effect<HeldSecrets> =>
  ctx.keys.mnemonic().pipe(
    Effect.map((m) =>
      secretsOfWords(m, [
        ...preimagesOf(ctx.states),
        ...connectionSecretsOf(m, nwcIndexesOf(crdtProjection.view(ctx.states.crdt))),
      ]),
    ),
    Effect.orElseSucceed(() => ({ strings: preimagesOf(ctx.states), words: [] })),
  );

const invalid = () =>
  new InvalidInput({ message: "Please say something!", key: "feedback.invalid_feedback" });

export const sendFeedbackCommand: Handler<"SendFeedback"> = (cmd, ctx) =>
  Effect.gen(function* () {
    if (!cmd.host)
      return yield* Effect.fail(
        new ServerUnavailable({
          message: "Feedback could not be sent, try again.",
          key: "feedback.error_try_again",
        }),
      );
    const feedback = cmd.feedback.trim();
    if (!feedback || feedback.length > 10_000) return yield* Effect.fail(invalid());
    if (cmd.images.length > MAX_IMAGES || cmd.images.some((i) => i.bytes.length > MAX_IMAGE_BYTES))
      return yield* Effect.fail(
        new InvalidInput({
          message: "Each image must be smaller than 5 MB, and at most 4 images.",
          key: "feedback.image_too_large",
        }),
      );
    let logs: string[] | null = null;
    if (cmd.includeLogs) {
      const held = yield* heldSecrets(ctx);
      logs = redactLines(ctx.lightning?.logs() ?? [], held);
    }
    const form = {
      userType: cmd.userType,
      id: cmd.id.trim().slice(0, 200),
      feedback,
      logs,
      images: cmd.images,
    };
    yield* ctx.outside(
      Effect.tryPromise({
        try: () => sendFeedback(http, cmd.host, form),
        catch: (e) => {
          const text = e instanceof FeedbackRefused ? e.statusText : "";
          return text
            ? new ServerUnavailable({
                message: `Feedback could not be sent: ${text}`,
                key: "feedback.error",
                values: { status: text },
              })
            : new ServerUnavailable({
                message: "Feedback could not be sent, try again.",
                key: "feedback.error_try_again",
              });
        },
      }),
    );
    return outcome(null);
  });
