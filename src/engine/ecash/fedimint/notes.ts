/** Ecash as Fedimint notes: spent into a token of exactly the amount asked, and redeemed at their federation. */
import { EcashFailure } from "../port";
import { ecashMoved } from "../moved";
import { FEDERATION_CONNECT_FAILED } from "./clients";
import { type Fedimint, follow, record, refusal } from "./federation";
import { satsOfMsats } from "./map";

/** Notes of exactly `amountSats` from federation `fed`. */
export const sendNotes = (fedimint: Fedimint, fed: string, amountSats: bigint) =>
  fedimint.withFederation(fed, async (w, s) => {
    if (satsOfMsats(await w.balance.getBalance()) < amountSats) throw refusal("Insufficient balance");
    const spent = await w.mint.spendNotes(Number(amountSats * 1000n));
    // Exactly the amount the owner asked for, or the notes are taken back.
    const worth = BigInt(await w.mint.parseNotes(spent.notes));
    if (worth !== amountSats * 1000n) {
      await w.mint.tryCancelSpendNotes(spent.operation_id).catch(() => undefined);
      throw refusal("The federation could not make notes of that amount.");
    }
    const events = record(s, [ecashMoved("ecash.sent", fed, fedimint.uuid(), amountSats, 0n, "token", null)]);
    await fedimint.persist(fed, s);
    return { token: spent.notes, events };
  });

/** Redeems `notes` at the joined federation they belong to. */
export const receiveNotes = async (fedimint: Fedimint, notes: string) => {
  for (const fed of fedimint.federations()) {
    let worth: bigint;
    try {
      worth = await fedimint.withFederation(fed, async (w) => BigInt(await w.mint.parseNotes(notes.trim())));
    } catch {
      continue; // not this federation's notes
    }
    return fedimint.withFederation(fed, async (w, s) => {
      const operationId = await w.mint.redeemEcash(notes.trim());
      const state = await follow<unknown>(
        (ok, err) => w.mint.subscribeReissueExternalNotes(operationId, ok as never, err),
        (x) => x === "Done",
        fedimint.payWaitMs,
      );
      if (state !== "Done") throw new EcashFailure({ message: FEDERATION_CONNECT_FAILED, unreachable: true });
      const amountSats = worth / 1000n;
      const events = record(s, [
        ecashMoved("ecash.received", fed, fedimint.uuid(), amountSats, 0n, "token", null),
      ]);
      await fedimint.persist(fed, s);
      // Fedimint notes carry no note of their own.
      return { mint: fed, amountSats, memo: null, events };
    });
  }
  throw refusal("Invalid Arguments were given");
};
