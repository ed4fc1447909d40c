import { screen } from "../ui/lazy-screen";

// Home's contacts and payment code are not needed by a first visit's welcome screen, so home is a file of
// its own too. A returning wallet fetches it beside the worker's start (`preloadHome`); the welcome screen
// fetches it, with the first-run profile step that may come before it, once it is up (`preloadFirstRun`).
export const Home = screen(() => import("./home/Home"), "Home");
export const NewProfile = screen(() => import("./profile/NewProfile"), "NewProfile");

/** Fetches home's screen ahead, so the first views show it at once. */
export const preloadHome = (): void => void Home.preload().catch(() => undefined);

/** Fetches what "New wallet" leads to: the first-run profile step, and home. */
export const preloadFirstRun = (): void => {
  preloadHome();
  void NewProfile.preload().catch(() => undefined);
};
