/** `npm run harness`: the local regtest world on 127.0.0.1 (port from ESPLORA_PORT, default 3002). */
import {
  DEFAULT_ESPLORA_PORT,
  DEFAULT_LIGHTNING_TCP_PORT,
  DEFAULT_LIGHTNING_WS_PORT,
  DEFAULT_LNURL_PORT,
} from "./ports";
import { startHarness } from "./world";

const port = Number(process.env.ESPLORA_PORT ?? DEFAULT_ESPLORA_PORT);
const h = await startHarness({
  port,
  lightningTcpPort: Number(process.env.LIGHTNING_PORT ?? DEFAULT_LIGHTNING_TCP_PORT),
  lightningWsPort: Number(process.env.LIGHTNING_WS_PORT ?? DEFAULT_LIGHTNING_WS_PORT),
  lnurlPort: Number(process.env.LNURL_PORT ?? DEFAULT_LNURL_PORT),
  network: true,
});
console.log(`Regtest chain at height ${h.tipHeight()}`);
console.log(`Esplora API   ${h.esploraUrl}   (e.g. ${h.esploraUrl}/blocks/tip/height)`);
console.log(
  `Faucet        POST ${h.esploraUrl}/faucet {"address","sats"}   or  npm run faucet -- <address> [sats]`,
);
console.log(`Mining        POST ${h.esploraUrl}/mine {"blocks","address"?}   or  npm run mine -- [blocks]`);
console.log(`Price feed    ${h.esploraUrl}/api/v1/price/USD`);
console.log(`Lightning     ${h.lightning.address}   (WebSocket ${h.lightning.wsAddress})`);
console.log(
  `              HTTP API ${h.esploraUrl}/ln/info, /ln/invoice, /ln/pay, /ln/channels … (see harness/README.md)`,
);
console.log(`LSP           ${h.esploraUrl}/api/v1/info   Proxy ${h.proxyUrl}/v1/<host>/<port>`);
console.log(
  `Network       ${h.esploraUrl}/net/map   invoices: POST /net/invoice {node, amount_sats, hints?}`,
);
console.log(`RGS           ${h.esploraUrl}/rgs/snapshot/0   (requests: ${h.esploraUrl}/rgs/requests)`);
console.log(`LSPS2 LSP     ${h.lsps2.connectionString}   token ${h.lsps2.token}`);
console.log(`Nostr relay   ${h.nostr.relayUrl}   (NIP-11: GET with Accept: application/nostr+json)`);
console.log(
  `Profile cache POST ${h.nostr.cacheUrl} ["user_search",{"query","limit"}] …   (the primal_api setting)`,
);
console.log(`Blossom       PUT ${h.nostr.blossomUrl}/upload   GET ${h.nostr.blossomUrl}/<sha256>`);
console.log(
  `Nostr people  ${h.nostr.seeded.map((p) => p.lud16 ?? p.name).join(", ")}\n              more: POST ${h.esploraUrl}/nostr/seed {"name"}  or  npx tsx harness/cli.ts seed <name>`,
);
console.log(`Cashu mint    ${h.cashu.mintUrl}   (keyset ${h.cashu.mint.keysetId})`);
console.log(`Cashu mint 2  ${h.cashu.mint2Url}   (keyset ${h.cashu.mint2.keysetId})`);

console.log(`Feedback      POST ${h.esploraUrl}/v1/feedback (multipart)   GET ${h.esploraUrl}/v1/feedback`);
console.log(
  `Storage       ${h.storageUrl}   (LDK's VSS API; ${process.env.DATABASE_URL ? "PostgreSQL at DATABASE_URL" : "embedded PGlite, started on first use"})`,
);
console.log(
  `Plus          GET ${h.esploraUrl}/plus/plans   POST /plus/subscribe {plan_id,nwc}   GET /plus/subscription (NIP-98)`,
);
console.log(
  `Lightning addr GET ${h.esploraUrl}/.well-known/lnurlp/<name>   POST /hermes/names {name, mint, pubkey} (NIP-98, members; offline payments go to the mint, the token to pubkey over NIP-17)`,
);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await h.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
