/** The fee of what the send form holds now, asked of the worker whenever the route or amount changes. */
import { useEffect, useState } from "react";
import { useErrorText } from "../../ui/errors";
import { useWallet } from "../../ui/wallet";
import type { SendRoute } from "./send-rules";

export type Fee = {
  readonly feeSats: bigint;
  readonly amountSats: bigint;
  readonly upTo: boolean;
  /** The worker asks a second confirmation before paying this fee. */
  readonly highFee: boolean;
  /** Paid from ecash: the custodian's name (the fee is its mint's quote). */
  readonly ecash?: string;
};

/**
 * The fee for `amountSats` over `route` (nothing while `problem` stands), asked 250 ms after the last
 * change. `error`: why it could not be told, or a problem the form sets meanwhile (`setError`).
 */
export const useFee = (
  route: SendRoute | null,
  amountSats: bigint,
  sendAll: boolean,
  problem: string | null,
) => {
  const errorText = useErrorText();
  const client = useWallet();
  const [fee, setFee] = useState<Fee | null>(null);
  const [error, setError] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `errorText` only formats an error for display
  useEffect(() => {
    setFee(null);
    setError(null);
    if (!route || problem !== null) return;
    let current = true;
    const ask: () => Promise<Fee> =
      route.kind === "onchain"
        ? sendAll
          ? () =>
              client
                .dispatch({ _tag: "EstimateSweepTxFee", address: route.address })
                .then((r) => ({ ...r, upTo: false }))
          : () =>
              client
                .dispatch({ _tag: "EstimateTxFee", address: route.address, amountSats })
                .then((r) => ({ feeSats: r.feeSats, amountSats, upTo: false, highFee: r.highFee }))
        : () =>
            client
              .dispatch({ _tag: "EstimateLightningFee", amountSats })
              .then((r) => ({ feeSats: r.maxFeeSats, amountSats, upTo: true, highFee: false }));
    const timer = setTimeout(() => {
      ask()
        .then((f) => current && setFee(f))
        .catch((e) => current && setError(errorText(e)));
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [route?.kind, route && "address" in route ? route.address : null, amountSats, sendAll, problem, client]);
  return { fee, error, setError };
};
