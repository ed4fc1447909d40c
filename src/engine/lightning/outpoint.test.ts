/**
 * A channel's funding outpoint as the views show it: LDK's bindings answer "none" (a channel not funded
 * yet, or closed before it was) with an outpoint of zeros, which the wallet shows as none, never as a
 * transaction of zeros to look up.
 */
import * as ldk from "lightningdevkit";
import { beforeAll, expect, it } from "vitest";
import { loadLdk } from "../../../services/gossip/pipes";
import { internalBytes, outpointText } from "./chain";

beforeAll(() => loadLdk());

const TXID = "4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b";

it("shows a funding outpoint as txid:vout, and none for LDK's outpoint of zeros", () => {
  expect(outpointText(ldk.OutPoint.constructor_new(internalBytes(TXID), 1))).toBe(`${TXID}:1`);
  expect(outpointText(ldk.OutPoint.constructor_new(new Uint8Array(32), 0))).toBeNull();
  expect(outpointText(null)).toBeNull();
});
