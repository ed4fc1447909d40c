import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { toEvents } from "../../../property-tests/arbitraries";
import { stamp } from "../../events/make";
import { foldEvents } from "../../projections";
import type { HandlerContext } from "../context";
import { exportLabels, importLabels } from "./labels";
import { offlineContext } from "../context.testing";

const contextFor = (
  events = toEvents([{ k: "tx", received: 1000n, sent: 0n, fee: 0n, outgoing: false, label: "salary" }]),
): HandlerContext =>
  offlineContext(foldEvents(events), { stamp: { uuid: () => "id", now: () => 1, device: "bb" } });

describe("BIP-329 labels", () => {
  it("imports labels into the owner's document and exports them joined with the transaction's own", async () => {
    const ctx = contextFor();
    const [txid] = [...ctx.states.onchain.txs.keys()];
    const text = `${JSON.stringify({ type: "tx", ref: txid, label: "rent, march" })}\nnot json\n`;
    const imported = await Effect.runPromise(importLabels({ _tag: "ImportLabels", text }, ctx));
    expect(imported.result).toEqual({ imported: 1, badLines: [2] });
    const after = { ...ctx, states: foldEvents(stamp(imported.events, ctx.stamp), ctx.states) };
    const exported = await Effect.runPromise(exportLabels({ _tag: "ExportLabels" }, after));
    expect(exported.result.fileName).toBe("labels.jsonl");
    expect(
      exported.result.jsonl
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual([{ type: "tx", ref: txid, label: "salary, rent, march" }]);
  });

  it("refuses a file with no readable labels and changes nothing", async () => {
    const r = await Effect.runPromise(
      Effect.result(importLabels({ _tag: "ImportLabels", text: "hello\n{}" }, contextFor())),
    );
    expect(r).toMatchObject({
      _tag: "Failure",
      failure: { _tag: "InvalidInput", key: "settings.emergency_kit.labels.error_none" },
    });
  });
});
