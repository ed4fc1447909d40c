import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newEvent, stamp } from "../../events/make";
import { foldEvents } from "../../projections";
import type { HandlerContext } from "../context";
import { joinFederation, quoteEcashTransfer, removeFederation } from "./ecash";
import { failure, fixedStamp, offlineContext } from "../context.testing";
import { joinedCashu } from "../../events/events.testing";

/** A local server speaking enough of NUT-06/02 to be joined, or answering nonsense. */
let base = "";
const server = createServer((req, res) => {
  res.setHeader("content-type", "application/json");
  if (req.url === "/mint/v1/info")
    return res.end(
      JSON.stringify({ name: "Test mint", description: "Hello", end_of_service: 2_000_000_000 }),
    );
  if (req.url === "/mint/v1/keysets")
    return res.end(JSON.stringify({ keysets: [{ id: "00ad268c4d1f5826", unit: "sat", active: true }] }));
  if (req.url === "/bad/v1/info") return res.end(JSON.stringify({ name: 42 }));
  res.statusCode = 404;
  res.end("{}");
});
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

const ctxWith = (events: ReturnType<typeof newEvent>[] = []): HandlerContext =>
  offlineContext(foldEvents(stamp(events, fixedStamp)), { ecash: null, fetch: (i, init) => fetch(i, init) });

describe("joining a federation or mint", () => {
  it("joins a mint by URL, with its name, welcome message and end date, and refuses joining it twice", async () => {
    const ok = await Effect.runPromise(
      joinFederation({ _tag: "JoinFederation", code: ` ${base}/mint/ ` }, ctxWith()),
    );
    expect(ok.result).toEqual({ federationId: `${base}/mint`, name: "Test mint" });
    expect(ok.events).toEqual([
      newEvent("ecash.joined", {
        mint: `${base}/mint`,
        kind: "cashu",
        name: "Test mint",
        welcome: "Hello",
        expires_at: 2_000_000_000,
        invite: `${base}/mint`,
      }),
    ]);
    const again = await failure(
      joinFederation({ _tag: "JoinFederation", code: `${base}/mint` }, ctxWith([...ok.events])),
    );
    expect(again).toMatchObject({
      message: "You're already a member of this federation.",
      key: "already_in_fed",
    });
  });

  it("answers the catalogue's messages: empty, not a code, unreachable, not a mint", async () => {
    expect(await failure(joinFederation({ _tag: "JoinFederation", code: "  " }, ctxWith()))).toMatchObject({
      message: "Federation code required",
    });
    expect(await failure(joinFederation({ _tag: "JoinFederation", code: "hello" }, ctxWith()))).toMatchObject(
      {
        message: "Invalid Arguments were given",
      },
    );
    expect(
      await failure(joinFederation({ _tag: "JoinFederation", code: `${base}/bad` }, ctxWith())),
    ).toMatchObject({
      message: "Failed to connect to a federation.",
    });
    expect(
      await failure(joinFederation({ _tag: "JoinFederation", code: `${base}/none` }, ctxWith())),
    ).toMatchObject({
      message: "Failed to connect to a federation.",
    });
  });

  it("a Fedimint invite whose guardians cannot be reached fails with 'Failed to connect to a federation.'", async () => {
    const invite =
      "fed11qgqzc2nhwden5te0vejkg6tdd9h8gepwvejkg6tdd9h8garhduhx6at5d9h8jmn9wshxxmmd9uqqzgxg6s3evnr6m9zdxr6hxkdkukexpcs3mn7mj3g5pc5dfh63l4tj6g9zk4er";
    // A platform without the Fedimint client (the real client's own test is fedimint/client.test.ts).
    const offline: HandlerContext = { ...ctxWith(), loadFedimint: null };
    expect(await failure(joinFederation({ _tag: "JoinFederation", code: invite }, offline))).toMatchObject({
      _tag: "ServerUnavailable",
      message: "Failed to connect to a federation.",
    });
  });
});

describe("removing and transferring", () => {
  const mint = "http://127.0.0.1:1/cashu";
  const joined = joinedCashu(mint, "m");
  const held = newEvent("ecash.received", {
    op: "a",
    mint,
    amount: "5",
    fee: "0",
    via: "token",
    payment_hash: null,
  });

  it("a custodian holding ecash is not removed; an empty one is", async () => {
    expect(
      await failure(
        removeFederation({ _tag: "RemoveFederation", federationId: mint }, ctxWith([joined, held])),
      ),
    ).toMatchObject({
      key: "settings.manage_federations.remove_with_balance",
    });
    const ok = await Effect.runPromise(
      removeFederation({ _tag: "RemoveFederation", federationId: mint }, ctxWith([joined])),
    );
    expect(ok.events).toEqual([newEvent("ecash.removed", { mint })]);
    expect(
      await failure(removeFederation({ _tag: "RemoveFederation", federationId: "x" }, ctxWith())),
    ).toMatchObject({
      message: "No from/to federation",
    });
  });

  it("a transfer needs two custodians and an amount above 0 and at most the source balance", async () => {
    const other = "http://127.0.0.1:1/cashu2";
    const both = [
      joined,
      held,
      newEvent("ecash.joined", {
        mint: other,
        kind: "cashu",
        name: "o",
        welcome: "",
        expires_at: null,
        invite: other,
      }),
    ];
    const ctx = ctxWith(both);
    const t = (from: string, to: string, amountSats: bigint) =>
      failure(quoteEcashTransfer({ _tag: "QuoteEcashTransfer", from, to, amountSats }, ctx));
    expect(await t(mint, "nowhere", 1n)).toMatchObject({ message: "No from/to federation" });
    expect(await t(mint, mint, 1n)).toMatchObject({ message: "No from/to federation" });
    expect(await t(mint, other, 0n)).toMatchObject({
      message: "Satoshi amount is invalid",
      key: "errors.invalid_amount",
    });
    expect(await t(mint, other, 6n)).toMatchObject({ _tag: "InsufficientFunds" });
  });
});
