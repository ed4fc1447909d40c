import { hex } from "@scure/base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInvoice } from "../../../harness/bolt11-sign";
import { type LnurlAuthService, startLnurlAuth } from "../../../harness/lnurl-auth";
import { type LnurlService, startLnurlService } from "../../../harness/lnurl";
import { rootKey } from "../keys/mnemonic";
import lud04 from "./vectors/lud04.json";
import lud05 from "./vectors/lud05.json";
import examples from "./vectors/lud-examples.json";
import { linkingKey, linkingPathSuffix, signChallenge, verifyChallenge } from "./auth";
import {
  type Fetch,
  fetchParams,
  fixedPayAmountSats,
  LnurlError,
  type LnurlParams,
  login,
  metadataText,
  requestPayInvoice,
  submitWithdraw,
} from "./client";
import { rejectionOf } from "../../../services/testing/rejection";

const MNEMONIC =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const fetchFn: Fetch = (input, init) => fetch(input, init);

const failure = (p: Promise<unknown>) => rejectionOf(p, LnurlError);

describe("LUD-05 linking keys (published vector)", () => {
  it.each(lud05.vectors)("gives the path of $domain", (v) => {
    expect(linkingPathSuffix(hex.decode(v.hashingPrivKey), v.domain)).toEqual(v.pathSuffix);
  });
  it("derives one key per domain, the same every time", () => {
    const root = rootKey(MNEMONIC);
    const a = linkingKey(root, "site.com");
    expect(hex.encode(linkingKey(root, "site.com").publicKey)).toBe(hex.encode(a.publicKey));
    expect(hex.encode(linkingKey(root, "site.com.").publicKey)).toBe(hex.encode(a.publicKey));
    expect(hex.encode(linkingKey(root, "other.com").publicKey)).not.toBe(hex.encode(a.publicKey));
    expect(a.publicKey).toHaveLength(33);
  });
});

describe("LUD-04 signatures", () => {
  it.each(lud04.signatures)("accepts the published example", (v) => {
    expect(verifyChallenge(v.k1, v.sig, v.key)).toBe(true);
    expect(verifyChallenge(v.k1.replace(/^e/, "f"), v.sig, v.key)).toBe(false);
  });
  it("signs a challenge the way a service verifies it", () => {
    const key = linkingKey(rootKey(MNEMONIC), "site.com");
    const k1 = lud04.signatures[0]!.k1;
    expect(verifyChallenge(k1, signChallenge(k1, key.privateKey), hex.encode(key.publicKey))).toBe(true);
  });
});

describe("LUD-06 metadata (published example)", () => {
  it.each(examples.metadata)("reads the text/plain entry", (m) => {
    expect(metadataText(m.raw)).toBe(m.text);
  });
  it("refuses metadata that is not an array of arrays", () => {
    expect(metadataText("{}")).toBeNull();
    expect(metadataText('["text/plain"]')).toBeNull();
    expect(metadataText("not json")).toBeNull();
  });
});

describe("against the local LNURL service", () => {
  let service: LnurlService;
  let auth: LnurlAuthService;
  const paid: string[] = [];
  let wrongHash = false;
  beforeAll(async () => {
    service = await startLnurlService({
      createInvoice: async (msat, descriptionHash) =>
        signInvoice({ msat, descriptionHash: wrongHash ? new Uint8Array(32) : descriptionHash }),
      payInvoice: async (bolt11) => {
        paid.push(bolt11);
      },
    });
    auth = await startLnurlAuth();
  });
  afterAll(async () => {
    await service?.stop();
    await auth?.stop();
  });

  const payParams = async (lnurl: string) => {
    const p = await fetchParams(fetchFn, lnurl);
    if (p.tag !== "payRequest") throw new Error("expected a pay request");
    return p;
  };

  it("pays through a lightning address: limits, comment, invoice checked, success action", async () => {
    const action = examples.successActions[0] as { tag: "message"; message: string };
    const offer = service.addPay({
      name: "alice",
      minSendable: 1_000n,
      maxSendable: 50_000_000n,
      description: "Coffee for Alice",
      commentAllowed: 20,
      successAction: action,
    });
    const p = await payParams(`${service.base}/.well-known/lnurlp/alice`);
    expect(p.description).toBe("Coffee for Alice");
    expect(p.domain).toBe("127.0.0.1");
    expect(fixedPayAmountSats(p)).toBeNull();
    const answer = await requestPayInvoice(fetchFn, p, 2_100n, "thanks!", "regtest");
    expect(answer.successAction).toEqual(action);
    expect(service.invoices.at(-1)).toMatchObject({ name: "alice", msat: 2_100_000n, comment: "thanks!" });
    expect(answer.bolt11).toBe(service.invoices.at(-1)?.bolt11);
    expect(offer.address).toMatch(/^alice@127\.0\.0\.1:\d+$/);
    // The bech32 form reads the same.
    expect((await payParams(offer.lnurl)).callback).toBe(p.callback);
  });

  it("refuses amounts outside the limits, too long comments and invoices for another description", async () => {
    service.addPay({ name: "bob", minSendable: 10_000n, maxSendable: 10_000n, description: "Fixed" });
    const p = await payParams(`${service.base}/lnurlp/bob`);
    expect(fixedPayAmountSats(p)).toBe(10n);
    expect((await failure(requestPayInvoice(fetchFn, p, 11n, "", "regtest"))).key).toBe(
      "lnurl.error_amount_range",
    );
    expect((await failure(requestPayInvoice(fetchFn, p, 10n, "hi", "regtest"))).key).toBe(
      "lnurl.error_comment",
    );
    // The service itself refuses too, with its reason.
    const direct = { ...p, maxSendable: 20_000n };
    const refused = await failure(requestPayInvoice(fetchFn, direct, 20n, "", "regtest"));
    expect(refused.key).toBe("lnurl.error_service");
    expect(refused.reason).toMatch(/between/);
    wrongHash = true;
    try {
      expect((await failure(requestPayInvoice(fetchFn, p, 10n, "", "regtest"))).key).toBe(
        "lnurl.error_bad_invoice",
      );
    } finally {
      wrongHash = false;
    }
    expect((await failure(requestPayInvoice(fetchFn, p, 10n, "", "bitcoin"))).key).toBe(
      "lnurl.error_bad_invoice",
    );
  });

  it("withdraws: limits read, the invoice handed over is paid once", async () => {
    const w = service.addWithdraw({
      minWithdrawable: 1_000n,
      maxWithdrawable: 5_000_000n,
      defaultDescription: "Prize",
    });
    const p = (await fetchParams(fetchFn, w.lnurl)) as Extract<LnurlParams, { tag: "withdrawRequest" }>;
    expect(p).toMatchObject({ tag: "withdrawRequest", minWithdrawable: 1_000n, maxWithdrawable: 5_000_000n });
    const bolt11 = signInvoice({ msat: 3_000_000n, descriptionHash: new Uint8Array(32) });
    await submitWithdraw(fetchFn, p, bolt11);
    await service.settled();
    expect(paid).toContain(bolt11);
    expect(service.withdrawals.at(-1)).toMatchObject({ id: w.id, ok: true });
    expect((await failure(submitWithdraw(fetchFn, p, bolt11))).reason).toMatch(/already used/);
  });

  it("logs in with the domain's linking key; the service records it", async () => {
    const root = rootKey(MNEMONIC);
    const request = auth.newLogin("login");
    const params = await fetchParams(fetchFn, request.lnurl);
    expect(params).toMatchObject({ tag: "login", domain: "127.0.0.1", action: "login" });
    const result = await login(fetchFn, params.url, root);
    expect(auth.loginOf(request.k1)).toBe(hex.encode(linkingKey(root, "127.0.0.1").publicKey));
    expect(result.key).toBe(auth.loginOf(request.k1));
    // A challenge is good for one login.
    expect((await failure(login(fetchFn, params.url, root))).reason).toMatch(/Unknown or used/);
  });

  it("names an unreachable service", async () => {
    expect((await failure(fetchParams(fetchFn, "http://127.0.0.1:1/lnurlp/x"))).key).toBe(
      "lnurl.error_unreachable",
    );
  });
});
