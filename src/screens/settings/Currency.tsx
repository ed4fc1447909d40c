import { useErrorText } from "../../ui/errors";
import { FIAT_CURRENCIES } from "../../ui/money";
import { useView, useWallet } from "../../ui/wallet";
import { ChoiceSettings } from "./ChoiceSettings";

/** Fiat currency choice; saved with the wallet, then home after 1000 ms. */
export function CurrencySettings() {
  const client = useWallet();
  const errorText = useErrorText();
  const settings = useView("settings");
  const save = async (code: string) => {
    try {
      await client.dispatch({ _tag: "SetFiat", code });
      return null;
    } catch (err) {
      return errorText(err);
    }
  };
  return (
    <ChoiceSettings
      keys="settings.currency"
      id="currency"
      options={FIAT_CURRENCIES}
      current={settings?.fiat ?? "USD"}
      save={save}
    />
  );
}
