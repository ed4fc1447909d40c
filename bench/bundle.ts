import { readFile, readdir } from "node:fs/promises";
import { gzipSync } from "node:zlib";

/** Gzip size of the JavaScript the page loads before first paint (entry and its preloads). */
export const benchBundle = async () => {
  const html = await readFile("dist/index.html", "utf8");
  const scripts = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  let gz = 0;
  let raw = 0;
  for (const f of new Set(scripts)) {
    const buf = await readFile(`dist/${f}`);
    raw += buf.length;
    gz += gzipSync(buf, { level: 9 }).length;
  }
  const all = (await readdir("dist/assets")).filter((f) => f.endsWith(".js") || f.endsWith(".wasm"));
  let lazy = 0;
  for (const f of all)
    if (!scripts.includes(`assets/${f}`)) lazy += gzipSync(await readFile(`dist/assets/${f}`)).length;
  console.log(
    `first-paint JavaScript: ${(gz / 1024).toFixed(1)} kB gzip (${(raw / 1024).toFixed(0)} kB raw) in ${scripts.length} file(s); loaded later (worker, wasm, languages): ${(lazy / 1024).toFixed(0)} kB gzip`,
  );
};
