/**
 * "New wallet" → home beside Mutiny web 1.8.0 (built as bench/README.md says, outside the repository), the
 * way `bench:load --beside` measures it: each build makes a wallet in a fresh browser profile, its button
 * pressed to home's balance, steps on the way pressed the moment they show (our "Skip"; Mutiny's profile
 * step is skipped through storage, as its own "Skip for now" records it), the two builds in turn, run by
 * run, on the same local world. Three batches of five runs: the target (≤ 0.3×) is for every batch, so the
 * figure is the worst batch's ratio of medians. Once with the button pressed the moment it shows, once a
 * second after (a person reading the screen).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Harness } from "../harness/world";
import { figure } from "./figures";
import { OUR_BUTTON, OUR_HOME } from "./load";
import { launchChromium } from "./chromium";
import { median, newWalletVisit, type ReloadTarget } from "./reload";
import { serveStatic } from "./serve";

/** Mutiny web's build: `BENCH_MUTINY`, or where bench/README.md builds it beside the repository. */
export const MUTINY_DIR =
  process.env.BENCH_MUTINY ?? join(import.meta.dirname, "..", "..", "peers", "mutiny", "dist", "public");
const BATCHES = 3;
const RUNS = 5;

export const benchBesideMutiny = async (world: Harness) => {
  if (!existsSync(join(MUTINY_DIR, "index.html")))
    throw new Error(
      `no Mutiny web build at ${MUTINY_DIR}: build it as bench/README.md says, or name its folder in BENCH_MUTINY`,
    );
  const ours: ReloadTarget = {
    label: "this wallet",
    dir: "dist",
    button: OUR_BUTTON,
    skip: "^Skip$",
    balance: OUR_HOME,
  };
  const mutiny: ReloadTarget = {
    label: "Mutiny web 1.8.0",
    dir: MUTINY_DIR,
    button: "^New Wallet$",
    balance: "text:\\d\\s*SATS",
    // Its LSP and proxy are the world's, on the same port as its esplora.
    storage: {
      USER_SETTINGS_lsp: world.esploraUrl,
      USER_SETTINGS_proxy: world.esploraUrl.replace(/^http/, "ws"),
      profile_setup_stage: "skipped",
    },
  };
  const servers = [await serveStatic(ours.dir), await serveStatic(mutiny.dir)] as const;
  const browser = await launchChromium();
  /** The worst batch's ratio of medians, each build's button pressed `readMs` after it shows. */
  const batches = async (readMs: number, how: string): Promise<number> => {
    const ratios: number[] = [];
    for (let batch = 1; batch <= BATCHES; batch++) {
      const times: [number[], number[]] = [[], []];
      for (let run = 0; run < RUNS; run++)
        for (const [k, target] of [ours, mutiny].entries())
          times[k]!.push(await newWalletVisit(browser, servers[k]!, target, world.esploraUrl, readMs));
      const [a, b] = [median(times[0]), median(times[1])];
      ratios.push(a / b);
      console.log(
        `batch ${batch}, ${how} (${RUNS} runs each, in turn): "New wallet" → home ${a.toFixed(0)} ms, Mutiny web 1.8.0 ${b.toFixed(0)} ms: ${(a / b).toFixed(2)}×`,
      );
    }
    return Math.max(...ratios);
  };
  try {
    // The button pressed the moment it shows: ours is drawn before the app's code has arrived (first-paint),
    // so this press waits for the app's start too; Mutiny's shows once its app is up.
    const atOnce = await batches(0, "pressed the moment it shows");
    figure(`"New wallet" → home ÷ Mutiny web 1.8.0, worst of ${BATCHES} batches`, atOnce, "×", 0.3);
    // A person who reads the first screen for a second before pressing, in both builds.
    const read = await batches(1_000, "pressed after a second's reading");
    figure(`the same, pressed after a second's reading`, read, "×", 0.3);
  } finally {
    await browser.close();
    await Promise.all(servers.map((s) => s.close()));
  }
};
