/** `npm run harness`: the local regtest world on 127.0.0.1 (port from ESPLORA_PORT, default 3002). */
import { DEFAULT_ESPLORA_PORT } from "./ports";
import { startHarness } from "./world";

const port = Number(process.env.ESPLORA_PORT ?? DEFAULT_ESPLORA_PORT);
const h = await startHarness({ port });
console.log(`Regtest chain at height ${h.tipHeight()}`);
console.log(`Esplora API   ${h.esploraUrl}   (e.g. ${h.esploraUrl}/blocks/tip/height)`);
console.log(
  `Faucet        POST ${h.esploraUrl}/faucet {"address","sats"}   or  npm run faucet -- <address> [sats]`,
);
console.log(`Mining        POST ${h.esploraUrl}/mine {"blocks","address"?}   or  npm run mine -- [blocks]`);
console.log(`Price feed    ${h.esploraUrl}/api/v1/price/USD`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await h.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
