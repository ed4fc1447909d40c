import encodeQR from "qr";
import { useMemo } from "react";

/** A QR code as inline SVG; defaults of spec 1 §9: size 128, error correction level L. */
export function Qr({ value, size = 128, label }: { value: string; size?: number; label: string }) {
  const svg = useMemo(() => encodeQR(value, "svg", { ecc: "low", border: 2 }), [value]);
  return (
    <div
      className="qr"
      role="img"
      aria-label={label}
      style={{ width: size, height: size }}
      // The SVG is generated locally from `value`; it carries no script.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: locally generated SVG markup
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}
