import { usePicture } from "../../ui/profile";

/**
 * A contact's picture, or the first letter of its name while it has none, while it loads, or when it cannot
 * be read. The worker reads the picture within bounds, so the page never loads images from other hosts.
 */
export function Avatar({ name, image, size = 40 }: { name: string; image: string | null; size?: number }) {
  const src = usePicture(image);
  const letter = ([...name.trim()][0] ?? "?").toUpperCase();
  return (
    <span className="avatar" aria-hidden="true" style={{ width: size, height: size }}>
      {src ? <img src={src} alt="" width={size} height={size} /> : letter}
    </span>
  );
}
