/** Home's tabs follow the WAI-ARIA tabs pattern: one tab stop, arrow keys between tabs. */

/** The tab a key moves to (arrows wrap around, Home and End go to the ends), or null for other keys. */
export const nextTab = <T>(tabs: readonly T[], current: T, key: string): T | null => {
  const i = tabs.indexOf(current);
  const n = tabs.length;
  if (n === 0) return null;
  switch (key) {
    case "ArrowRight":
      return tabs[(i + 1) % n] ?? null;
    case "ArrowLeft":
      return tabs[(i - 1 + n) % n] ?? null;
    case "Home":
      return tabs[0] ?? null;
    case "End":
      return tabs[n - 1] ?? null;
    default:
      return null;
  }
};
