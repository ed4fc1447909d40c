import { Effect } from "effect";
import { makeChange } from "../../crdt/doc";
import { exportBip329, importBip329 } from "../../engine/onchain/bip329";
import { newEvent } from "../../events/make";
import { crdtProjection } from "../../projections/crdt";
import type { OnchainState } from "../../projections/onchain";
import { labelsOf } from "../../projections/settings";
import { type Handler, outcome } from "../context";
import { InvalidInput } from "../../errors";

export const LABELS_FILE_NAME = "labels.jsonl";

/** The on-chain state with the owner's edited labels joined to the labels the transactions came with. */
const withEditedLabels = (
  state: OnchainState,
  edited: { readonly [id: string]: readonly string[] },
): OnchainState => ({
  ...state,
  txs: new Map(
    [...state.txs].map(([id, t]) => [
      id,
      { ...t, labels: [...new Set([...t.labels, ...(edited[id] ?? [])])] },
    ]),
  ),
  addresses: new Map(
    [...state.addresses].map(([a, r]) => [
      a,
      { ...r, labels: [...new Set([...r.labels, ...(edited[a] ?? [])])] },
    ]),
  ),
});

/** Transaction and address labels as BIP-329 JSON Lines, for other wallets to read. */
export const exportLabels: Handler<"ExportLabels"> = (_cmd, ctx) => {
  const edited = labelsOf(crdtProjection.view(ctx.states.crdt));
  return Effect.succeed(
    outcome({
      jsonl: exportBip329(withEditedLabels(ctx.states.onchain, edited)),
      fileName: LABELS_FILE_NAME,
    }),
  );
};

/** Reads BIP-329 labels into the owner's labels; unreadable lines are counted, not fatal. */
export const importLabels: Handler<"ImportLabels"> = (cmd, ctx) =>
  Effect.gen(function* () {
    const { tx, addr, badLines } = importBip329(cmd.text);
    const entries = [...tx, ...addr];
    if (entries.length === 0)
      return yield* Effect.fail(
        new InvalidInput({
          message: "This file has no BIP-329 labels the wallet can read.",
          key: "settings.emergency_kit.labels.error_none",
        }),
      );
    const change = makeChange(crdtProjection.view(ctx.states.crdt), ctx.stamp.device, (d) => {
      for (const [ref, labels] of entries) d.labels[ref] = labels;
    });
    return outcome(
      { imported: entries.length, badLines },
      change ? [newEvent("crdt.change", { change })] : [],
    );
  });
