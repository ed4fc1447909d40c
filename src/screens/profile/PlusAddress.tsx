import { useEffect, useState } from "react";
import { useI18n } from "../../i18n/intl";
import { useWalletConfig } from "../../ui/config";
import { Qr } from "../../ui/Qr";
import { ShareField } from "../../ui/ShareField";
import { useView, useWallet } from "../../ui/wallet";

/**
 * The lightning address a Plus member holds (name@host, from the address service), or null: for a
 * non-member, with no service configured, or before the service answered.
 */
export const usePlusAddress = (): string | null => {
  const client = useWallet();
  const config = useWalletConfig();
  const member = useView("plus")?.mutiny_plus === true;
  const host = config.hermes ?? "";
  const [address, setAddress] = useState<string | null>(null);
  useEffect(() => {
    if (!member || !host) return;
    let current = true;
    client.dispatch({ _tag: "GetLightningAddress", host }).then(
      (mine) => current && setAddress(mine.address),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [client, member, host]);
  return member ? address : null;
};

/**
 * The member's lightning address, what friends pay: its QR (a `lightning:` link a wallet's scanner opens),
 * the address and a copy button. Nothing for a non-member.
 */
export function PlusAddress({ address, qr = true }: { readonly address: string; readonly qr?: boolean }) {
  const { t } = useI18n();
  return (
    <ShareField label={t("profile.lightning_address")} text={address} testId="plus-address">
      {qr ? <Qr value={`lightning:${address}`} size={180} label={t("profile.lightning_address_qr")} /> : null}
    </ShareField>
  );
}
