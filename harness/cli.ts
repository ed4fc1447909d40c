/**
 * Talks to a running local world:
 *   npm run faucet -- <bcrt1-address> [sats]     (default 1,000,000 sats, then mines a block)
 *   npm run mine -- [blocks] [address]           (default 1 block to the faucet)
 *   npx tsx harness/cli.ts seed <name> [--lud16 a@b] [--picture url] [--display-name "…"] [--about "…"]
 *                                                (a new nostr person: profile on the world's relay, picture,
 *                                                lightning address on the world's LNURL service)
 * The server is at ESPLORA_URL, else http://127.0.0.1:$ESPLORA_PORT (default 3002).
 */
import { DEFAULT_ESPLORA_PORT } from "./ports";

const base = (
  process.env.ESPLORA_URL ?? `http://127.0.0.1:${process.env.ESPLORA_PORT ?? DEFAULT_ESPLORA_PORT}`
).replace(/\/$/, "");

const post = async (path: string, body: unknown): Promise<unknown> => {
  let r: Response;
  try {
    r = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    throw new Error(`The local world is not running at ${base} (start it with npm run harness)`);
  }
  const text = await r.text();
  if (!r.ok) throw new Error(text || `HTTP ${r.status}`);
  return JSON.parse(text);
};

const usage = () => {
  console.error(
    'usage: cli.ts faucet <address> [sats] | cli.ts mine [blocks] [address] | cli.ts seed <name> [--lud16 a@b] [--picture url] [--display-name "…"] [--about "…"]',
  );
  process.exit(2);
};

const [command, ...args] = process.argv.slice(2);
try {
  if (command === "faucet") {
    const [address, sats = "1000000"] = args;
    if (!address || !/^\d+$/.test(sats)) usage();
    const { txid } = (await post("/faucet", { address, sats })) as { txid: string };
    const { hashes } = (await post("/mine", { blocks: 1 })) as { hashes: string[] };
    console.log(`Sent ${sats} sats to ${address}\ntxid ${txid}\nconfirmed in block ${hashes[0]}`);
  } else if (command === "mine") {
    const [blocks = "1", address] = args;
    if (!/^\d+$/.test(blocks)) usage();
    const { hashes } = (await post("/mine", { blocks: Number(blocks), ...(address ? { address } : {}) })) as {
      hashes: string[];
    };
    console.log(`Mined ${hashes.length} block(s); tip ${hashes[hashes.length - 1]}`);
  } else if (command === "seed") {
    const [name, ...rest] = args;
    if (!name || name.startsWith("--") || rest.length % 2 !== 0) usage();
    const body: Record<string, string> = { name: name! };
    const flags: Record<string, string> = {
      "--lud16": "lud16",
      "--picture": "picture",
      "--display-name": "display_name",
      "--about": "about",
    };
    for (let i = 0; i < rest.length; i += 2) {
      const field = flags[rest[i]!];
      if (!field) usage();
      body[field!] = rest[i + 1]!;
    }
    const p = (await post("/nostr/seed", body)) as Record<string, string | null>;
    console.log(
      `${p.display_name} (${p.name})\nnpub  ${p.npub}\nnsec  ${p.nsec}\nhex   ${p.pubkey}\nlud16 ${p.lud16 ?? "none"}\npicture ${p.picture}`,
    );
  } else {
    usage();
  }
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
}
