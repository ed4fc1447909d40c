import { useState } from "react";

/** A contact's picture, or the first letter of its name when it has none or the picture does not load. */
export function Avatar({ name, image, size = 40 }: { name: string; image: string | null; size?: number }) {
  const [failed, setFailed] = useState<string | null>(null);
  const letter = ([...name.trim()][0] ?? "?").toUpperCase();
  return (
    <span className="avatar" aria-hidden="true" style={{ width: size, height: size }}>
      {image && failed !== image ? (
        <img
          src={image}
          alt=""
          width={size}
          height={size}
          referrerPolicy="no-referrer"
          onError={() => setFailed(image)}
        />
      ) : (
        letter
      )}
    </span>
  );
}
