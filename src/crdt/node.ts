import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { initCrdt } from "./doc";

/** Loads Automerge's wasm in Node (tests, replay, bench). */
export const initCrdtNode = (): Promise<void> =>
  initCrdt(
    async () =>
      new Uint8Array(
        await readFile(createRequire(import.meta.url).resolve("@automerge/automerge/automerge.wasm")),
      ),
  );
