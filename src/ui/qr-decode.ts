/**
 * QR decoding with zxing-wasm, loaded from the wallet's own copy of the wasm file (never a CDN).
 */
import wasmUrl from "zxing-wasm/reader/zxing_reader.wasm?url";
import { prepareZXingModule, type ReaderOptions, readBarcodes } from "zxing-wasm/reader";

/** Spec 1 §9: at most 25 decodes a second, the centre 0.66 of the frame, a decode abandoned after 10 s. */
export const MAX_SCANS_PER_SECOND = 25;
export const SCAN_REGION = 0.66;
export const DECODE_TIMEOUT_MS = 10_000;

let prepared = false;
const prepare = () => {
  if (prepared) return;
  prepared = true;
  prepareZXingModule({
    overrides: {
      locateFile: (path: string, prefix: string) => (path.endsWith(".wasm") ? wasmUrl : prefix + path),
    },
  });
};

const OPTIONS: ReaderOptions = { formats: ["QRCode"], tryHarder: true, maxNumberOfSymbols: 1 };

/** The square in the middle of a frame the scanner reads: `SCAN_REGION` of its shorter side. */
export const scanRegion = (width: number, height: number) => {
  const side = Math.floor(Math.min(width, height) * SCAN_REGION);
  return { x: Math.floor((width - side) / 2), y: Math.floor((height - side) / 2), side };
};

/** The text of the first QR code in the image, or null (no code, or the decode failed or timed out). */
export const decodeQr = async (input: ImageData | Blob): Promise<string | null> => {
  prepare();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), DECODE_TIMEOUT_MS);
  });
  try {
    const read = readBarcodes(input, OPTIONS).then((found) => found.find((b) => b.isValid)?.text ?? null);
    return await Promise.race([read, timeout]);
  } catch {
    // Decode errors are silent (spec 1 §8).
    return null;
  } finally {
    clearTimeout(timer);
  }
};
