/**
 * A site of one page that runs a module worker with LDK in Chromium: `entry` bundled as `/worker.js`, LDK's
 * wasm as `/ldk.wasm`, and an empty `/index.html` to open. Served over loopback (`serveStatic`).
 */
import { copyFile, mkdtemp, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { type StaticServer, serveStatic } from "./serve";

export const serveLdkWorker = async (entry: string, title: string): Promise<StaticServer> => {
  const dir = await mkdtemp(join(tmpdir(), "ldk-worker-"));
  await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "browser",
    outfile: join(dir, "worker.js"),
    logLevel: "warning",
    // Node's own crypto, imported by the bindings only outside a browser.
    external: ["crypto"],
  });
  await copyFile(
    createRequire(import.meta.url).resolve("lightningdevkit/liblightningjs.wasm"),
    join(dir, "ldk.wasm"),
  );
  await writeFile(join(dir, "index.html"), `<!doctype html><title>${title}</title>`);
  return serveStatic(dir);
};
