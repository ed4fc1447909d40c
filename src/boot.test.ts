import { describe, expect, it } from "vitest";
import { BOOT_MESSAGES, bootErrorKind, browserProblem } from "./boot";

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
});
