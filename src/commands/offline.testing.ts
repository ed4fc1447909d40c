/**
 * A wallet host with no world behind it: nothing answers at its addresses and no engine runs, for tests of
 * what the log, the folds and this device's storage hold. Light on purpose (no harness, no engine).
 */
import type { WalletConfig } from "../config";
import type { WalletDb } from "../events/db";
import { type CommandAnswer, WalletHost } from "./host/host";
import { makeStateCipher } from "./wallet/state-cipher";

/** A cheap key stretch: these tests are not about the password. */
export const testCipher = makeStateCipher({ iterations: 1000, allowWeak: true });

/** The answer's value, or the error thrown with its tag. */
export const ok = <T = unknown>(a: CommandAnswer): T => {
  if (!a.ok) throw new Error(`${a.error._tag}: ${a.error.message}`);
  return a.value as T;
};

/** Regtest with nothing at its addresses: no Esplora, proxy, LSP or price source. */
export const offlineConfig = {
  network: "regtest",
  esplora: "http://127.0.0.1:1",
  proxy: null,
  lsp: null,
  priceSource: "",
} as const satisfies WalletConfig;

type OpenOptions = Parameters<typeof WalletHost.open>[0];

/** A host on `db` with `offlineConfig`, `testCipher` and no engines; `opts` overrides any of them. */
export const openOfflineHost = (
  db: WalletDb,
  opts: Partial<Omit<OpenOptions, "db">> = {},
): Promise<WalletHost> =>
  WalletHost.open({ db, config: offlineConfig, cipher: testCipher, onViews: () => undefined, ...opts });

/** Sets the wallet's first password (it had none), as the owner does in Settings. */
export const setFirstPassword = async (host: WalletHost, password: string): Promise<void> => {
  ok(await host.run({ _tag: "ChangePassword", existing: "", password, confirm: password }));
};
