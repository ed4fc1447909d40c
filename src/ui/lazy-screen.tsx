import { type ComponentType, lazy, useState } from "react";

/**
 * A route's screen, loaded when first opened: home and setup are in the first paint, the rest (send,
 * receive, the scanner's wasm, settings) come as separate files, cached by the service worker.
 *
 * A screen whose file is already here (opened before, or fetched ahead with `preload`) renders at once. A
 * plain `lazy` one would suspend for a tick even then, and React keeps a fallback it has shown on screen for
 * at least 300 ms: the welcome screen's "New wallet" would land on its next screen a third of a second late.
 */
export const screen = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) => {
  let ready: ComponentType | null = null;
  let loading: Promise<ComponentType> | null = null;
  const preload = (): Promise<ComponentType> => {
    loading ??= load().then(
      (m) => {
        ready = m[name];
        return ready;
      },
      (e: unknown) => {
        // A failed fetch is tried again the next time the screen is opened.
        loading = null;
        throw e;
      },
    );
    return loading;
  };
  const Lazy = lazy(() => preload().then((c) => ({ default: c })));
  function Screen(props: object) {
    // Chosen once per mount: switching from the lazy one to the loaded one would remount the screen.
    const [Loaded] = useState(() => ready);
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  return Object.assign(Screen, { preload });
};
