/**
 * The wallet-connect desk after a restart: payments accepted but never answered (the wallet stopped
 * between paying and answering) are answered from their outcome.
 */
import { failure, type Nip47Response, success } from "../../engine/nwc/protocol";
import type { States } from "../../projections";
import { type NwcRequest, unansweredPayments } from "../../projections/nwc";
import { type Desk, nextCommit, profileOf, recordAnswer, targetOf } from "./turn";

/** A payment's outcome as the log knows it, by payment hash (or, for keysend, by what started it). */
const outcomeOf = (
  s: States,
  r: NwcRequest,
  profileName: string,
): { status: "succeeded"; preimage: string; feeMsat: bigint } | { status: "failed" | "pending" } | null => {
  const hash = r.payment?.paymentHash ?? null;
  const matches = [...s.lightning.payments.values()].filter((p) =>
    hash !== null
      ? p.paymentHash === hash
      : p.bolt11 === null &&
        p.amountMsat === r.payment?.amountMsat &&
        p.startedAt >= (r.acceptedAt ?? 0) &&
        p.labels.includes(profileName),
  );
  const won = matches.find((p) => p.status === "succeeded");
  if (won) return { status: "succeeded", preimage: won.preimage ?? "", feeMsat: won.feeMsat };
  if (matches.some((p) => p.status === "pending")) return { status: "pending" };
  if (matches.length > 0) return { status: "failed" };
  return null;
};

/** The answer to an accepted request, once its payment's outcome is final in the log. */
const answerFromOutcome = async (desk: Desk, r: NwcRequest, profileName: string): Promise<Nip47Response> => {
  for (;;) {
    const o = outcomeOf(desk.host.states(), r, profileName);
    if (o === null)
      return failure(
        r.method,
        "PAYMENT_FAILED",
        "The wallet stopped before this payment went out; it was not paid.",
      );
    if (o.status === "succeeded")
      return success(r.method, { preimage: o.preimage, fees_paid: Number(o.feeMsat) });
    if (o.status === "failed") return failure(r.method, "PAYMENT_FAILED", "The payment failed.");
    await nextCommit(desk);
  }
};

/**
 * Money rule, answer from the outcome after a restart: a payment accepted in an earlier run and never
 * answered is answered from what the node's log says became of it, once the node had its say (it may
 * still be on its way); none is paid again, because the app's second delivery of the request finds it
 * decided and a payment never started is answered as not paid rather than started now, unseen.
 */
export const recover = async (desk: Desk): Promise<void> => {
  await desk.host.whenLightning();
  const s = desk.host.states();
  await Promise.all(
    unansweredPayments(s.nwc)
      .filter((r) => !desk.acceptedHere.has(r.requestId))
      .map(async (r) => {
        const response = await answerFromOutcome(desk, r, profileOf(s, r.index)?.name ?? "");
        await recordAnswer(desk, r.requestId, response);
        const { target, d } = targetOf(r);
        await desk.host
          .nwc()
          ?.reply(target, [d === undefined ? { response } : { response, d }])
          .catch(() => undefined);
      }),
  );
};
