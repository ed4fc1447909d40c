/** Small, valid PNG avatars (a disc on a background, colours from a seed) for the world's seeded people. */
import { createHash } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";

const chunk = (type: string, data: Buffer) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
};

const hsl = (h: number, s: number, l: number): [number, number, number] => {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
};

/** A `size`×`size` RGB PNG, the same bytes for the same seed. */
export const avatarPng = (seed: string, size = 64): Buffer => {
  const d = createHash("sha256").update(seed).digest();
  const hue = (d[0]! / 255) * 360;
  const bg = hsl(hue, 0.55, 0.85);
  const fg = hsl((hue + 180) % 360, 0.6, 0.45);
  const raw = Buffer.alloc(size * (size * 3 + 1));
  const c = (size - 1) / 2;
  const r2 = (size * 0.32) ** 2;
  for (let y = 0; y < size; y++) {
    const row = y * (size * 3 + 1);
    raw[row] = 0;
    for (let x = 0; x < size; x++) {
      const [r, g, b] = (x - c) ** 2 + (y - c) ** 2 <= r2 ? fg : bg;
      raw[row + 1 + x * 3] = r;
      raw[row + 2 + x * 3] = g;
      raw[row + 3 + x * 3] = b;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from("89504e470d0a1a0a", "hex"),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
};
