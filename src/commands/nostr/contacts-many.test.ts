import * as A from "@automerge/automerge/slim";
import { Effect } from "effect";
import { beforeAll, describe, expect, it } from "vitest";
import { toEvents } from "../../../property-tests/arbitraries";
import { makeChange } from "../../crdt/doc";
import { initCrdtNode } from "../../crdt/node";
import { stamp } from "../../events/make";
import type { WalletEvent } from "../../events/types";
import { deriveViews, foldEvent, foldEvents, type States } from "../../projections";
import { crdtProjection } from "../../projections/crdt";
import type { Command } from "../command";
import type { HandlerContext } from "../context";
import { offlineContext } from "../context.testing";
import { handlers } from "../host/handlers";

beforeAll(() => initCrdtNode());

/**
 * Contact changes are made on the folded document itself (no copy per change): the live fold a command
 * at a time must still be the fold of the log from scratch, including after a change made and never stored.
 */
describe("a thousand contact changes made one at a time", () => {
  it("folds to what a rebuild of the log gives", { timeout: 600_000 }, async () => {
    const log: WalletEvent[] = [...toEvents([])];
    let live: States = foldEvents(log);
    let n = 0;
    const ctx = (): HandlerContext =>
      offlineContext(live, {
        stamp: { uuid: () => `c-${++n}`, now: () => 1_700_000_000_000 + n * 1000, device: "aa" },
      });
    const run = async (command: Command): Promise<unknown> => {
      const c = ctx();
      const handler = (handlers as Record<string, unknown>)[command._tag] as (
        cmd: Command,
        ctx: HandlerContext,
      ) => Effect.Effect<{ result: unknown; events: Parameters<typeof stamp>[0] }>;
      const out = await Effect.runPromise(handler(command, c));
      for (const e of stamp(out.events, c.stamp)) {
        log.push(e);
        live = foldEvent(live, e);
      }
      return out.result;
    };
    const ids: string[] = [];
    for (let i = 0; i < 1000; i++) {
      if (i % 97 === 50) {
        // A command that changed the document and then failed: its change is never stored.
        makeChange(crdtProjection.view(live.crdt), "aa", (d) => {
          d.contacts[ids[0]!]!.name = "never stored";
        });
      }
      if (i < 600 || i % 3 === 0) {
        const { id } = (await run({
          _tag: "CreateContact",
          name: `Person ${i}`,
          npub: "",
          ln_address: `p${i}@example.com`,
        })) as { id: string };
        ids.push(id);
      } else if (i % 3 === 1) {
        const id = ids[i % ids.length]!;
        await run({
          _tag: "EditContact",
          id,
          name: `Renamed ${i}`,
          npub: "",
          ln_address: `r${i}@example.com`,
        });
      } else {
        const id = ids.splice(i % ids.length, 1)[0]!;
        await run({ _tag: "DeleteContact", id });
      }
      if (i % 100 === 0) deriveViews(live);
    }
    expect(log.filter((e) => e.type === "crdt.change")).toHaveLength(1000);
    const rebuilt = foldEvents(log);
    expect(deriveViews(live)).toEqual(deriveViews(rebuilt));
    expect(
      deriveViews(live)
        .contacts.map((c) => c.id)
        .sort(),
    ).toEqual([...ids].sort());
    expect(A.toJS(crdtProjection.view(live.crdt))).toEqual(A.toJS(crdtProjection.view(rebuilt.crdt)));
    expect([...A.getHeads(crdtProjection.view(live.crdt))].sort()).toEqual(
      [...A.getHeads(crdtProjection.view(rebuilt.crdt))].sort(),
    );
    expect(JSON.stringify(A.toJS(crdtProjection.view(live.crdt)))).not.toContain("never stored");
  });
});
