import { Effect } from "effect";
import { makeChange } from "../../crdt/doc";
import {
  isValidMnemonic,
  isBip39Word,
  newMnemonic,
  normaliseWords,
  SEED_WORDS,
} from "../../engine/keys/mnemonic";
import { currencyByCode } from "../../engine/price/currencies";
import { newEvent } from "../../events/make";
import { KV } from "../../events/storage-keys";
import { crdtProjection } from "../../projections/crdt";
import { type Handler, type HandlerContext, outcome } from "../context";
import { InvalidInput, WalletState } from "../../errors";

const noWalletYet = (ctx: HandlerContext) =>
  ctx.states.wallet.exists
    ? Effect.fail(
        new WalletState({ message: "A wallet already exists on this device.", key: "errors.wallet_exists" }),
      )
    : Effect.void;

const needsWallet = (ctx: HandlerContext) =>
  ctx.states.wallet.exists
    ? Effect.void
    : Effect.fail(
        new WalletState({ message: "There is no wallet on this device yet.", key: "errors.no_wallet" }),
      );

/** A new wallet: 12 fresh words, stored with the event that records the wallet's birth. */
export const createWallet: Handler<"CreateWallet"> = (_cmd, ctx) =>
  Effect.gen(function* () {
    yield* noWalletYet(ctx);
    const walletId = ctx.stamp.uuid();
    return outcome(
      { walletId },
      [newEvent("wallet.created", { walletId, network: ctx.network, restored: false })],
      [{ key: KV.seed, value: { mnemonic: newMnemonic() } }],
    );
  });

/**
 * Checks restore words the way the restore screen shows them: exactly 12, each from the BIP39 list,
 * and a valid checksum over all of them.
 */
export const checkRestoreWords = (words: readonly string[]): InvalidInput | null => {
  if (words.length !== SEED_WORDS)
    return new InvalidInput({
      message: "The seed phrase must have exactly 12 words.",
      key: "settings.restore.error_word_number",
    });
  const wrong = words.findIndex((w) => !isBip39Word(w));
  if (wrong >= 0)
    return new InvalidInput({
      message: `Word ${wrong + 1} is not in the word list.`,
      key: "settings.restore.wrong_word",
      values: { n: String(wrong + 1) },
    });
  if (!isValidMnemonic(words.join(" ")))
    return new InvalidInput({
      message: "These words are not a valid seed phrase.",
      key: "settings.restore.error_invalid_seed",
    });
  return null;
};

/** Restores from written-down words; a restored wallet counts as backed up. */
export const restoreWallet: Handler<"RestoreWallet"> = (cmd, ctx) =>
  Effect.gen(function* () {
    yield* noWalletYet(ctx);
    const words = normaliseWords(cmd.words.join(" "));
    const problem = checkRestoreWords(words);
    if (problem) return yield* Effect.fail(problem);
    const walletId = ctx.stamp.uuid();
    return outcome(
      { walletId },
      [newEvent("wallet.created", { walletId, network: ctx.network, restored: true })],
      [{ key: KV.seed, value: { mnemonic: words.join(" ") } }],
    );
  });

/** The seed words, for the backup screen only. */
export const showSeed: Handler<"ShowSeed"> = (_cmd, ctx) =>
  Effect.gen(function* () {
    yield* needsWallet(ctx);
    const mnemonic = yield* ctx.keys.mnemonic();
    return outcome({ words: mnemonic.split(" ") });
  });

export const markBackedUp: Handler<"MarkBackedUp"> = (_cmd, ctx) =>
  Effect.gen(function* () {
    yield* needsWallet(ctx);
    return outcome(null, ctx.states.wallet.has_backed_up ? [] : [newEvent("wallet.backed_up", {})]);
  });

export const setSafeMode: Handler<"SetSafeMode"> = (cmd, ctx) =>
  Effect.succeed(
    outcome(
      null,
      ctx.states.wallet.safe_mode === cmd.enabled
        ? []
        : [newEvent("wallet.safe_mode_set", { enabled: cmd.enabled })],
    ),
  );

/** A change to the owner-edited document, as an event (none when nothing changed). */
export const docChange = (ctx: HandlerContext, edit: Parameters<typeof makeChange>[2]) => {
  const change = makeChange(crdtProjection.view(ctx.states.crdt), ctx.stamp.device, edit);
  return change ? [newEvent("crdt.change", { change })] : [];
};

export const setFiat: Handler<"SetFiat"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const currency = currencyByCode(cmd.code);
    if (!currency)
      return yield* Effect.fail(
        new InvalidInput({
          message: "Please choose a supported currency.",
          key: "settings.currency.error_unsupported_currency",
        }),
      );
    return outcome(
      null,
      docChange(ctx, (d) => {
        if (d.settings.fiat !== currency.value) d.settings.fiat = currency.value;
      }),
    );
  });

export const setZapHodl: Handler<"SetZapHodl"> = (cmd, ctx) =>
  Effect.succeed(
    outcome(
      null,
      docChange(ctx, (d) => {
        if ((d.settings.should_zap_hodl ?? false) !== cmd.enabled) d.settings.should_zap_hodl = cmd.enabled;
      }),
    ),
  );

export const setLabels: Handler<"SetLabels"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const labels = [...new Set(cmd.labels.map((l) => l.trim()).filter((l) => l.length > 0))];
    if (labels.some((l) => l.length > 255))
      return yield* Effect.fail(
        new InvalidInput({
          message: "A label can be at most 255 characters long.",
          key: "errors.label_too_long",
        }),
      );
    return outcome(
      null,
      docChange(ctx, (d) => {
        d.labels[cmd.itemId] = labels;
      }),
    );
  });
