// Prints the wallet's speed and size figures. Not a test: nothing here passes or fails on time.
//
// `npm run bench` runs every section; `npm run bench -- contacts ecash` runs those alone (`--list` names
// them). Each section runs on its own with a timeout sized to a busy machine: one that fails or runs out of
// time says why and the run goes on. The end prints every figure against its target (met / missed).
import { spawnSync } from "node:child_process";
import { initCrdtNode } from "../src/crdt/node";
import { type Harness, startHarness } from "../harness/world";
import { benchBesideMutiny } from "./beside-mutiny";
import { benchBundle } from "./bundle";
import { benchCashuMint } from "./cashu";
import { benchEcash } from "./ecash";
import { benchContactsView, benchGlobalSearch } from "./contacts";
import { inSection, summaryTable } from "./figures";
import { benchJitReceive } from "./jit";
import { benchColdLoad } from "./cold-load";
import { benchLoad, OUR_BUTTON, OUR_HOME } from "./load";
import { benchBigReload, benchReload } from "./reload";
import { benchOnchainSync } from "./onchain";
import { benchLightningReady, benchPayments } from "./lightning";
import { benchNwcPay } from "./nwc";
import { benchHiddenTab } from "./hidden";
import { benchReconnect } from "./reconnect";
import { benchLightningAddress } from "./lnaddress";
import { benchWorkerMemory } from "./memory";
import { benchRelay } from "./nostr";
import { benchChat } from "./chat";
import { benchReplay } from "./replay";
import { benchStartFold } from "./start-fold";
import { benchImportInChromium } from "./import";
import { benchRestoreScan, benchUnlock } from "./security";
import { benchParse, benchQrDecode } from "./scan";
import { benchStorage } from "./storage";
import { benchTower } from "./tower";
import { benchMainnetGraph } from "./graph";

const MIN = 60_000;

type Needs = { build?: boolean; world?: boolean };
type Section = Needs & {
  name: string;
  title: string;
  /** The most it may take on a busy shared machine before the run moves on. */
  timeoutMs: number;
  run: (world: Harness) => Promise<unknown> | unknown;
};

let stateFile: ReturnType<typeof benchReplay> | null = null;
/** The replay section's state file, made once for the sections that read it. */
const replayed = () => {
  stateFile ??= benchReplay();
  return stateFile;
};

const sections: Section[] = [
  { name: "bundle", title: "Bundle", build: true, timeoutMs: 5 * MIN, run: () => benchBundle() },
  { name: "replay", title: "Replay", timeoutMs: 10 * MIN, run: () => replayed() },
  {
    name: "start-fold",
    title: "A returning wallet's start",
    timeoutMs: 15 * MIN,
    run: () => benchStartFold(),
  },
  {
    name: "import",
    title: "Import in Chromium",
    build: true,
    timeoutMs: 15 * MIN,
    run: async () => {
      const s = await replayed();
      await benchImportInChromium(s.json, s.password, s.events);
    },
  },
  {
    name: "scan",
    title: "Payment strings and scanning",
    timeoutMs: 5 * MIN,
    run: async () => {
      benchParse();
      await benchQrDecode();
    },
  },
  { name: "contacts", title: "Contacts", timeoutMs: 15 * MIN, run: () => benchContactsView() },
  { name: "search", title: "Global search", timeoutMs: 5 * MIN, run: () => benchGlobalSearch() },
  {
    name: "load",
    title: "First visit and reload",
    build: true,
    world: true,
    timeoutMs: 20 * MIN,
    run: async (world) => {
      await benchLoad("dist", { esplora: world.esploraUrl, label: "this wallet" });
      await benchReload(
        [{ label: "this wallet", dir: "dist", button: OUR_BUTTON, skip: "^Skip$", balance: OUR_HOME }],
        { esplora: world.esploraUrl },
      );
    },
  },
  {
    name: "mutiny",
    title: "Beside Mutiny web 1.8.0",
    build: true,
    world: true,
    timeoutMs: 30 * MIN,
    run: (world) => benchBesideMutiny(world),
  },
  {
    name: "big-reload",
    title: "A big wallet's reload",
    build: true,
    world: true,
    timeoutMs: 20 * MIN,
    run: (world) => benchBigReload("dist", { esplora: world.esploraUrl }),
  },
  {
    name: "cold-load",
    title: "Cold load",
    build: true,
    world: true,
    timeoutMs: 15 * MIN,
    run: (world) => benchColdLoad(world.esploraUrl),
  },
  { name: "onchain", title: "On-chain", world: true, timeoutMs: 10 * MIN, run: (w) => benchOnchainSync(w) },
  {
    name: "security",
    title: "Password and restore",
    build: true,
    world: true,
    timeoutMs: 15 * MIN,
    run: async (world) => {
      await benchUnlock(world.esploraUrl);
      await benchRestoreScan(world);
    },
  },
  {
    name: "lightning",
    title: "Lightning",
    build: true,
    world: true,
    timeoutMs: 25 * MIN,
    run: async (world) => {
      await benchPayments(world);
      await benchJitReceive(world);
      await benchLightningReady(world);
      await benchWorkerMemory(world);
    },
  },
  {
    name: "reconnect",
    title: "A channel's connection: reload, socket drop",
    world: true,
    timeoutMs: 15 * MIN,
    run: (w) => benchReconnect(w),
  },
  {
    name: "hidden",
    title: "A hidden tab shown again → a payment sent",
    build: true,
    world: true,
    timeoutMs: 25 * MIN,
    run: (w) => benchHiddenTab(w),
  },
  { name: "storage", title: "Storage", world: true, timeoutMs: 10 * MIN, run: (w) => benchStorage(w) },
  { name: "tower", title: "Watchtower", world: true, timeoutMs: 15 * MIN, run: (w) => benchTower(w) },
  {
    name: "graph",
    title: "A mainnet-sized network graph",
    timeoutMs: 20 * MIN,
    run: () => benchMainnetGraph(),
  },
  {
    name: "nostr",
    title: "Nostr",
    world: true,
    timeoutMs: 10 * MIN,
    run: async (world) => {
      await benchRelay(world.nostr.relayUrl);
      await benchChat();
    },
  },
  {
    name: "ecash",
    title: "Ecash",
    world: true,
    timeoutMs: 20 * MIN,
    run: async (world) => {
      await benchCashuMint(world);
      await benchEcash(world);
    },
  },
  { name: "nwc", title: "Wallet-connect", world: true, timeoutMs: 15 * MIN, run: (w) => benchNwcPay(w) },
  { name: "plus", title: "Plus", world: true, timeoutMs: 10 * MIN, run: (w) => benchLightningAddress(w) },
];

const args = process.argv.slice(2);
if (args.includes("--list")) {
  for (const s of sections) console.log(`${s.name.padEnd(12)} ${s.title}`);
  process.exit(0);
}
const unknown = args.filter((a) => !sections.some((s) => s.name === a));
if (unknown.length > 0) {
  console.error(
    `unknown section(s): ${unknown.join(", ")}; one of: ${sections.map((s) => s.name).join(", ")}`,
  );
  process.exit(2);
}
const chosen = args.length === 0 ? sections : sections.filter((s) => args.includes(s.name));

/** Resolves with the section's outcome: done, failed (and why), or out of time. */
const within = async <T>(ms: number, work: () => Promise<T>): Promise<string> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`timed out after ${Math.round(ms / MIN)} min`), ms);
  });
  try {
    return await Promise.race([work().then(() => "done"), timeout]);
  } catch (e) {
    return `failed: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`;
  } finally {
    clearTimeout(timer);
  }
};

await initCrdtNode();
let built: string | null = null;
if (chosen.some((s) => s.build)) {
  const build = spawnSync("npx", ["vite", "build", "--logLevel", "warn"], {
    stdio: "inherit",
    env: { ...process.env, VITE_NETWORK: "regtest" },
  });
  built = build.status === 0 ? null : `the build failed (status ${build.status})`;
}
let world: Harness | null = null;
let worldFailed: string | null = null;
const outcomes: { name: string; outcome: string; ms: number }[] = [];
try {
  for (const s of chosen) {
    console.log(`\n== ${s.title} (${s.name}) ==`);
    inSection(s.name);
    const t0 = performance.now();
    let outcome: string;
    if (s.build && built) outcome = `skipped: ${built}`;
    else {
      if (s.world && !world && !worldFailed)
        world = await startHarness({ port: 0 }).catch((e: unknown) => {
          worldFailed = `the local world did not start: ${e instanceof Error ? e.message : String(e)}`;
          return null;
        });
      const w = world;
      if (s.world && !w) outcome = `skipped: ${worldFailed}`;
      else outcome = await within(s.timeoutMs, async () => s.run(w as Harness));
    }
    if (outcome !== "done") console.log(`  ${s.name}: ${outcome}`);
    outcomes.push({ name: s.name, outcome, ms: performance.now() - t0 });
  }
} finally {
  await (world as Harness | null)?.stop().catch(() => undefined);
}
console.log(`\n== Summary ==\n${summaryTable(outcomes)}`);
// A section that ran out of time may still hold timers or sockets: the run ends here.
process.exit(0);
