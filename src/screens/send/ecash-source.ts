/**
 * Paying an invoice from ecash (spec 1 send): offered on the confirm screen as a source beside lightning,
 * only where a custodian's ecash covers the invoice and the fee its mint quotes for paying it.
 */
import { useEffect, useState } from "react";
import type { EcashPaymentPreview } from "../../commands/command";
import type { FederationView } from "../../projections";
import { useWallet } from "../../ui/wallet";
import { ecashCovers } from "./send-rules";

export interface EcashSource {
  readonly custodian: { readonly id: string; readonly name: string };
  readonly balance: bigint;
  /** The mint's quote for paying the invoice: what the payment takes from the ecash, fee included. */
  readonly quote: EcashPaymentPreview;
}

/**
 * The ecash source for paying `bolt11` (an invoice for `amountSats`), or null: the custodian holding the most
 * ecash is asked for a quote when it holds at least the amount, and offered when it covers the fee too.
 */
export const useEcashSource = (
  bolt11: string | null,
  amountSats: bigint | null,
  federations: readonly FederationView[] | undefined,
): EcashSource | null => {
  const client = useWallet();
  const [source, setSource] = useState<EcashSource | null>(null);
  const richest = [...(federations ?? [])].sort((a, b) => (b.balance > a.balance ? 1 : -1))[0];
  const candidate =
    bolt11 && amountSats !== null && richest && richest.balance >= amountSats ? richest : null;
  const id = candidate?.federation_id ?? null;
  const name = candidate?.federation_name ?? "";
  const balance = candidate?.balance ?? 0n;
  useEffect(() => {
    setSource(null);
    if (!bolt11 || id === null) return;
    let current = true;
    client.dispatch({ _tag: "EcashMeltQuote", federationId: id, bolt11 }).then(
      (quote) => {
        if (current && ecashCovers(balance, quote)) setSource({ custodian: { id, name }, balance, quote });
      },
      // No quote (the mint is away, or refuses the invoice): lightning stays the only source.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [bolt11, id, name, balance, client]);
  return source;
};
