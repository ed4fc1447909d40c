// Prints the wallet's speed and size figures. Not a test: nothing here passes or fails on time.
import { spawnSync } from "node:child_process";
import { initCrdtNode } from "../src/crdt/node";
import { startHarness } from "../harness/world";
import { benchBundle } from "./bundle";
import { benchCashuMint } from "./cashu";
import { benchEcash } from "./ecash";
import { benchContactsView, benchGlobalSearch } from "./contacts";
import { benchJitReceive } from "./jit";
import { benchColdLoad } from "./cold-load";
import { benchLoad, OUR_BUTTON, OUR_HOME } from "./load";
import { benchBigReload, benchReload } from "./reload";
import { benchOnchainSync } from "./onchain";
import { benchLightningReady, benchPayments } from "./lightning";
import { benchNwcPay } from "./nwc";
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

await initCrdtNode();
const build = spawnSync("npx", ["vite", "build", "--logLevel", "warn"], {
  stdio: "inherit",
  env: { ...process.env, VITE_NETWORK: "regtest" },
});
if (build.status !== 0) process.exit(1);

console.log("\n== Foundation ==");
await benchBundle();
const stateFile = await benchReplay();
await benchStartFold();
await benchImportInChromium(stateFile.json, stateFile.password, stateFile.events);
console.log("\n== Payment strings and scanning ==");
benchParse();
await benchQrDecode();
console.log("\n== Contacts and search ==");
await benchContactsView();
await benchGlobalSearch();
const world = await startHarness({ port: 0 });
try {
  console.log("\n== First visit and reload ==");
  await benchLoad("dist", { esplora: world.esploraUrl, label: "this wallet" });
  await benchReload(
    [{ label: "this wallet", dir: "dist", button: OUR_BUTTON, skip: "^Skip$", balance: OUR_HOME }],
    { esplora: world.esploraUrl },
  );
  await benchBigReload("dist", { esplora: world.esploraUrl });
  await benchColdLoad(world.esploraUrl);
  console.log("\n== On-chain ==");
  await benchOnchainSync(world);
  console.log("\n== Password and restore ==");
  await benchUnlock(world.esploraUrl);
  await benchRestoreScan(world);
  console.log("\n== Lightning ==");
  await benchPayments(world);
  await benchJitReceive(world);
  await benchLightningReady(world);
  await benchReconnect(world);
  await benchWorkerMemory(world);
  await benchStorage(world);
  await benchTower(world);
  console.log("\n== A mainnet-sized network graph ==");
  await benchMainnetGraph();
  console.log("\n== Nostr ==");
  await benchRelay(world.nostr.relayUrl);
  await benchChat();
  console.log("\n== Ecash ==");
  await benchCashuMint(world);
  await benchEcash(world);
  console.log("\n== Wallet-connect ==");
  await benchNwcPay(world);
  console.log("\n== Plus ==");
  await benchLightningAddress(world);
} finally {
  await world.stop();
}
