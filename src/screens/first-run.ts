import { startWorkerEarly } from "../boot";
import type { WalletClient } from "../commands/client";
import type { Network } from "../events/types";
import { screen } from "../ui/lazy-screen";
import { makeNewWallet } from "../ui/new-wallet";
import { afterNewWallet } from "../ui/profile";

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

/**
 * "New wallet" pressed (on the welcome screen, or on the one drawn before the app): the worker that makes the
 * wallet comes now if it is not there yet, the wallet is asked for, and the screen the press leads to is
 * fetched: the first-run profile step, unless one was set up before or a browser extension holds the
 * identity, else home. Neither needs anything of the wallet to show (home takes no action until it exists,
 * and a failure brings the welcome screen back with the error). Answers that screen's path once its code
 * is here.
 */
export const beginNewWallet = async (client: WalletClient, network: Network): Promise<string> => {
  startWorkerEarly(network, undefined, true);
  void makeNewWallet(client).catch(() => undefined);
  const next = afterNewWallet();
  await (next === "/newprofile" ? NewProfile : Home).preload().catch(() => undefined);
  return next;
};
