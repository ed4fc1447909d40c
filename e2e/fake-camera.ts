/**
 * A camera for Chromium's fake capture device: a Y4M video whose every frame shows a QR code of `text`
 * on white, 640×480, so the scanner reads it as a person's camera would.
 */
import { writeFileSync } from "node:fs";
import encodeQR from "qr";

export const writeQrVideo = (path: string, text: string, frames = 10) => {
  const width = 640;
  const height = 480;
  const modules = encodeQR(text, "raw", { ecc: "low", border: 4 });
  const scale = Math.floor(360 / modules.length);
  const size = modules.length * scale;
  const left = Math.floor((width - size) / 2);
  const top = Math.floor((height - size) / 2);
  const y = Buffer.alloc(width * height, 235);
  for (let r = 0; r < size; r++)
    for (let c = 0; c < size; c++)
      if (modules[Math.floor(r / scale)]?.[Math.floor(c / scale)]) y[(top + r) * width + left + c] = 16;
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from("FRAME\n"), y, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(path, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
};
