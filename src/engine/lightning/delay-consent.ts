/**
 * The owner's consent to a shorter safety delay with one LSP. The wallet asks its partners for two weeks
 * (`WALLET_TO_SELF_DELAY`); an LSP whose LSPS2 offers allow less (`max_client_to_self_delay`) is used only
 * once the owner accepted that LSP's delay, never silently, and never below `MIN_TO_SELF_DELAY`. A consent
 * holds for that LSP and that delay or a longer one: a shorter offer, or another LSP, asks again.
 */
import { MIN_TO_SELF_DELAY, WALLET_TO_SELF_DELAY } from "./delay";

/** The delay each LSP (its node's pubkey) was last accepted at, in blocks. */
export type DelayConsents = ReadonlyMap<string, number>;

/** The delay the wallet's node asks when `lsp` is its LSP: the one the owner accepted for it, else two weeks. */
export const delayFor = (consents: DelayConsents, lsp: string | null): number => {
  const accepted = lsp === null ? undefined : consents.get(lsp);
  return accepted !== undefined && acceptable(accepted) ? accepted : WALLET_TO_SELF_DELAY;
};

/** A delay the owner may accept: at least a day, shorter than two weeks (two weeks needs no consent). */
export const acceptable = (blocks: number): boolean =>
  Number.isInteger(blocks) && blocks >= MIN_TO_SELF_DELAY && blocks < WALLET_TO_SELF_DELAY;

/**
 * What an LSP that allows at most `maxDelay` blocks means for a wallet asking `asked`: nothing to decide
 * (it allows what is asked), a delay the owner may accept, or one too short for the wallet to take.
 */
export const delayDecision = (asked: number, maxDelay: number): "allowed" | "ask_owner" | "too_short" =>
  maxDelay >= asked ? "allowed" : maxDelay >= MIN_TO_SELF_DELAY ? "ask_owner" : "too_short";
