import type { Network } from "../events/types";
import { projection } from "./projection";

export interface WalletView {
  readonly exists: boolean;
  readonly walletId: string | null;
  readonly network: Network | null;
  readonly has_backed_up: boolean;
  readonly safe_mode: boolean;
}

const initial: WalletView = {
  exists: false,
  walletId: null,
  network: null,
  has_backed_up: false,
  safe_mode: false,
};

export const walletProjection = projection<WalletView, WalletView>({
  name: "wallet",
  initial: () => initial,
  apply: (s, e) => {
    switch (e.type) {
      case "wallet.created":
        // A restore starts from written-down words, so it counts as backed up.
        return {
          ...s,
          exists: true,
          walletId: e.payload.walletId,
          network: e.payload.network,
          has_backed_up: s.has_backed_up || e.payload.restored,
        };
      case "wallet.backed_up":
        return s.has_backed_up ? s : { ...s, has_backed_up: true };
      case "wallet.safe_mode_set":
        return { ...s, safe_mode: e.payload.enabled };
      default:
        return s;
    }
  },
  view: (s) => s,
});
