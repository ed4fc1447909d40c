/**
 * LNURL services that lie, redirect, flood or never answer (the local service's hostile modes): the
 * wallet's client refuses what it must, bounded in time and size by the transport the wallet uses.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { signInvoice } from "../../../harness/bolt11-sign";
import { type HostileMode, Hostility } from "../../../harness/hostile";
import { type LnurlService, startLnurlService } from "../../../harness/lnurl";
import { boundedFetch, RequestTimedOut } from "../http/bounded";
import {
  type Fetch,
  fetchParams,
  fingerprintOf,
  LnurlError,
  requestPayInvoice,
  submitWithdraw,
} from "./client";
import { stopAfterAll } from "../../../harness/stop-after-all";
import { rejection as refusal } from "../../../services/testing/rejection";

const hostility = new Hostility();
let service: LnurlService;
const paid: string[] = [];
// The wallet's limits, shortened for the never-answering service.
const http: Fetch = boundedFetch((i, init) => fetch(i, init), { timeoutMs: 1_500, maxBytes: 512_000 });

beforeAll(async () => {
  service = await startLnurlService(
    {
      createInvoice: async (msat, descriptionHash) => signInvoice({ msat, descriptionHash }),
      payInvoice: async (bolt11) => void paid.push(bolt11),
    },
    { hostility },
  );
});
stopAfterAll(() => [service]);

const offer = (name: string, mode: HostileMode<"lnurl">) => {
  hostility.set("lnurl", name, mode);
  return service.addPay({ name, minSendable: 1_000n, maxSendable: 10_000_000n, description: `Pay ${name}` });
};

const payParams = async (url: string) => {
  const p = await fetchParams(http, url);
  if (p.tag !== "payRequest") throw new Error("expected a pay request");
  return p;
};

describe("hostile LNURL services", () => {
  it("refuses an invoice for another amount than asked", async () => {
    const p = await payParams(offer("greedy", "mismatched-amount").url);
    const e = await refusal(requestPayInvoice(http, p, 1_000n, "", "regtest"));
    expect(e).toMatchObject({ key: "lnurl.error_bad_invoice" });
  });

  it("tells a second read that differs from the offer the owner saw", async () => {
    const { url } = offer("fickle", "second-read-differs");
    const first = await payParams(url);
    const second = await payParams(url);
    expect(fingerprintOf(second)).not.toBe(fingerprintOf(first));
  });

  it("names the host that answered after a redirect, not the one first asked", async () => {
    const { url } = offer("moved", "redirect-other-host");
    expect(new URL(url).hostname).toBe("127.0.0.1");
    expect((await payParams(url)).domain).toBe("localhost");
  });

  it("shows a success link on another domain, or over plain http elsewhere, as text only", async () => {
    const p = await payParams(offer("phish", "foreign-success-url").url);
    const answer = await requestPayInvoice(http, p, 1_000n, "", "regtest");
    expect(answer.successAction).toMatchObject({ tag: "message" });
    expect(
      answer.successAction && "message" in answer.successAction && answer.successAction.message,
    ).toContain("http://receipts.example/claim");
  });

  it("gives up on a service that never answers, and on one that sends 50 MB", async () => {
    expect(await refusal(fetchParams(http, offer("silent", "never-answers").url))).toMatchObject({
      key: "lnurl.error_unreachable",
    });
    expect(await refusal(fetchParams(http, offer("flood", "huge-answer").url))).toBeInstanceOf(LnurlError);
    // The transport itself: a timeout, never a wait for ever.
    expect(await refusal(http(`${service.base}/lnurlp/silent`))).toBeInstanceOf(RequestTimedOut);
  });

  it("a withdraw service's OK is not a payment", async () => {
    const w = service.addWithdraw({ minWithdrawable: 1_000n, maxWithdrawable: 5_000_000n });
    hostility.set("lnurl", w.id, "withdraw-ok-unpaid");
    const p = await fetchParams(http, w.url);
    if (p.tag !== "withdrawRequest") throw new Error("expected a withdraw");
    const before = paid.length;
    await submitWithdraw(http, p, signInvoice({ msat: 2_000_000n, descriptionHash: new Uint8Array(32) }));
    await service.settled();
    expect(paid.length).toBe(before);
  });
});
