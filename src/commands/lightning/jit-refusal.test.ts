import { describe, expect, it } from "vitest";
import { LspRequestError } from "../../engine/lightning/lsp-http";
import { lspRefusal } from "./jit";

describe("an HTTP LSP's refusal on Receive", () => {
  it("is the catalogue's minimum with its amount and what to do, whatever the LSP's words", () => {
    const e = lspRefusal(new LspRequestError("The amount is below the minimum of 10000 sats", 400));
    expect(e).toMatchObject({ key: "receive.error_lsp_below_min", values: { amount: "10000" } });
    expect(
      lspRefusal(new LspRequestError('{"message":"amount_msat below minimum: 2,500,000 msat"}', 400)),
    ).toMatchObject({ key: "receive.error_lsp_below_min", values: { amount: "2500" } });
  });

  it("is the catalogue's maximum with its amount", () => {
    expect(
      lspRefusal(new LspRequestError("The amount is above the maximum of 4000000 sats", 400)),
    ).toMatchObject({ key: "receive.error_lsp_above_max", values: { amount: "4000000" } });
  });

  it("says only that the provider would not open a channel when it names no limit (its words go to the log)", () => {
    const e = lspRefusal(new LspRequestError("Ceci n'est pas possible", 403));
    expect(e).toMatchObject({ key: "receive.error_lsp_refused" });
    expect((e as { values?: unknown }).values).toBeUndefined();
    expect(e.message).not.toContain("Ceci n'est pas possible");
  });

  it("says the fee offer expired, and to try again", () => {
    expect(lspRefusal(new LspRequestError("The fee quote has expired", 400))).toMatchObject({
      key: "receive.error_lsp_quote_expired",
    });
  });

  it("is the LSP unreachable for a server error or no answer", () => {
    expect(lspRefusal(new LspRequestError("oops", 502))).toMatchObject({ key: "receive.error_lsp_failed" });
    expect(lspRefusal(new LspRequestError("gone", null))).toMatchObject({ key: "receive.error_lsp_failed" });
    expect(lspRefusal(new Error("x"))).toMatchObject({ key: "receive.error_lsp_failed" });
  });
});
