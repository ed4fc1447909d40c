import { useDeferredValue } from "react";

/**
 * How many rows of a long list to draw: `first` in the screen's first frame (what a screen shows above
 * the fold), all `total` in a render React does right after, in the background. A returning wallet's home
 * with its 50 payments and 40 contacts is then on screen as soon as an empty one's.
 */
export const useGradualCount = (total: number, first: number): number =>
  useDeferredValue(total, Math.min(total, first));
