import { describe, expect, it } from "vitest";
import { BOOT_MESSAGES, bootErrorKind, browserProblem, knownWallet } from "./boot";
import { walletFlagKey } from "./wallet-flag";

describe("boot checks", () => {
  it("names the first missing browser feature with the catalogue's text", () => {
    expect(browserProblem({ localStorage: {}, WebAssembly: {}, indexedDB: {} })).toBeNull();
    expect(browserProblem({ WebAssembly: {}, indexedDB: {} })).toBe(BOOT_MESSAGES.noLocalStorage);
    expect(browserProblem({ localStorage: {}, indexedDB: {} })).toBe(BOOT_MESSAGES.noWasm);
    expect(browserProblem({ localStorage: {}, WebAssembly: {} })).toBe(BOOT_MESSAGES.noIndexedDb);
  });
  it("chooses the boot-error screen by the message's prefix", () => {
    expect(bootErrorKind("Network connection closed by peer")).toBe("network");
    expect(bootErrorKind(BOOT_MESSAGES.existingTab)).toBe("existing_tab");
    expect(bootErrorKind("Mutiny is already running on another device")).toBe("already_running");
    expect(bootErrorKind(BOOT_MESSAGES.noWasm)).toBe("browser");
    expect(bootErrorKind(BOOT_MESSAGES.timeout)).toBe("failed");
  });
  it("knows a browser holds no wallet from the page's flag, else from the list of databases", async () => {
    const flag = (v: string | null) => ({
      getItem: (k: string) => (k === walletFlagKey("regtest") ? v : null),
    });
    const dbs = (names: string[]) => ({ databases: async () => names.map((name) => ({ name, version: 1 })) });
    expect(await knownWallet("regtest", flag("0"), dbs(["mutiny-wallet-regtest"]))).toBe("none");
    expect(await knownWallet("regtest", flag("1"), dbs([]))).toBe("maybe");
    expect(await knownWallet("regtest", flag(null), dbs([]))).toBe("none");
    expect(await knownWallet("regtest", flag(null), dbs(["mutiny-wallet-signet"]))).toBe("none");
    expect(await knownWallet("regtest", flag(null), dbs(["mutiny-wallet-regtest"]))).toBe("maybe");
    // A browser that cannot list its databases, or refuses, may hold one.
    expect(await knownWallet("regtest", flag(null), {} as never)).toBe("maybe");
    const refusing = { databases: () => Promise.reject(new Error("denied")) };
    expect(await knownWallet("regtest", flag(null), refusing)).toBe("maybe");
  });
});
