import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import encodeQR from "qr";
import { prepareZXingModule, readBarcodes } from "zxing-wasm/reader";
import { parsePaymentRequest } from "../src/engine/parse";
import { encodeLnurl } from "../src/engine/parse/lnurl";

const ADDRESS = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";
const CORPUS = [
  ADDRESS,
  `bitcoin:${ADDRESS}?amount=0.001&label=Coffee`,
  "02c3b844b8104f0c1b15c507774c9ba7fc609f58f343b9b149122e944dd20c9362",
  "alice@127.0.0.1:3000",
  encodeLnurl("http://127.0.0.1:3000/lnurlp/alice"),
  "lnurlw://127.0.0.1:3000/lnurlw/abc",
  "not a payment string",
  "",
  "keyauth://127.0.0.1/auth?tag=login&k1=00",
];

/** Strings per second through parsePaymentRequest over a mixed corpus (valid and invalid). */
export const benchParse = () => {
  const n = 200_000;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    try {
      parsePaymentRequest(CORPUS[i % CORPUS.length]!, "regtest");
    } catch {
      // refused strings count too
    }
  }
  const secs = (performance.now() - t0) / 1000;
  console.log(
    `parse: ${Math.round(n / secs).toLocaleString("en-US")} strings/s over a mixed corpus of ${CORPUS.length}`,
  );
};

/** Milliseconds to decode one 640×480 frame holding a QR code, and one holding none. */
export const benchQrDecode = async () => {
  const wasm = createRequire(import.meta.url).resolve("zxing-wasm/reader/zxing_reader.wasm");
  // Node has no fetch for file paths: the same wasm file is handed over as bytes.
  const bytes = readFileSync(wasm);
  prepareZXingModule({
    overrides: { wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
  });
  const frame = (text: string | null) => {
    const data = new Uint8ClampedArray(640 * 480 * 4).fill(235);
    if (text) {
      const m = encodeQR(text, "raw", { ecc: "low", border: 4 });
      const s = Math.floor(360 / m.length);
      for (let r = 0; r < m.length * s; r++)
        for (let c = 0; c < m.length * s; c++)
          if (m[Math.floor(r / s)]?.[Math.floor(c / s)]) {
            const at = ((60 + r) * 640 + 140 + c) * 4;
            data[at] = data[at + 1] = data[at + 2] = 16;
          }
    }
    return { data, width: 640, height: 480, colorSpace: "srgb" } as ImageData;
  };
  const opts = { formats: ["QRCode" as const], tryHarder: true, maxNumberOfSymbols: 1 };
  for (const [name, img] of [
    ["with a QR code", frame(`bitcoin:${ADDRESS}?amount=0.001`)],
    ["without a code", frame(null)],
  ] as const) {
    await readBarcodes(img, opts);
    const n = 30;
    const t0 = performance.now();
    let found = 0;
    for (let i = 0; i < n; i++) found += (await readBarcodes(img, opts)).length;
    console.log(
      `QR decode, 640×480 frame ${name}: ${((performance.now() - t0) / n).toFixed(1)} ms/frame (${found}/${n} read)`,
    );
  }
};
