import { Effect, Result } from "effect";
import { deriveViews, foldEvents } from "../../projections";
import { stateCipher } from "../wallet";
import { readStateHeader, validateContents } from "../wallet";
import { unexpected, type WalletError } from "../../errors";

/** JSON of views: bigints as decimal strings, in the views' own key order, so output is byte-stable. */
export const viewsJson = (views: unknown): string =>
  JSON.stringify(views, (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2);

/** Opens a state file with its password, folds its log and answers the views as JSON. */
export const replayStateFile = async (
  text: string,
  password: string,
): Promise<{ ok: true; json: string } | { ok: false; error: string }> => {
  const program = Effect.gen(function* () {
    const network = (() => {
      try {
        return (JSON.parse(text) as { network?: unknown }).network;
      } catch {
        return undefined;
      }
    })();
    const file = yield* readStateHeader(text, (network as never) ?? "bitcoin");
    const opened = yield* Effect.tryPromise({
      try: () => stateCipher.open(file.sealed, password),
      catch: (e) => (e instanceof Error && "_tag" in e ? (e as WalletError) : unexpected(e)),
    });
    const contents = yield* validateContents(opened);
    return viewsJson(deriveViews(foldEvents(contents.events)));
  });
  const r = await Effect.runPromise(Effect.result(program));
  return Result.isSuccess(r) ? { ok: true, json: r.success } : { ok: false, error: r.failure.message };
};
