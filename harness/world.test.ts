import { createHash } from "node:crypto";
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SERVERS } from "../src/config";
import { openSealedStore, storageKeysOfWords } from "../src/engine/storage/index";
import { type Harness, startHarness } from "./world";

const FAUCETED = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080";
const FAUCETED_SCRIPT = "0014751e76e8199196d454941c45d1b3a323f1433bd6";

describe("the local regtest world's Esplora API", () => {
  let h: Harness;
  const get = async (path: string) => {
    const r = await fetch(`${h.esploraUrl}${path}`);
    return { status: r.status, text: await r.text(), cors: r.headers.get("access-control-allow-origin") };
  };
  const json = async (path: string) => JSON.parse((await get(path)).text);

  beforeAll(async () => {
    h = await startHarness({ port: 0 });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("starts past segwit activation and answers the tip with open CORS", async () => {
    const height = await get("/blocks/tip/height");
    expect(Number(height.text)).toBeGreaterThanOrEqual(432);
    expect(height.cors).toBe("*");
    const hash = (await get("/blocks/tip/hash")).text;
    expect((await get(`/block-height/${height.text}`)).text).toBe(hash);
    const block = await json(`/block/${hash}`);
    expect(block).toMatchObject({ id: hash, height: Number(height.text), tx_count: 1 });
    expect((await get(`/block/${hash}/header`)).text).toHaveLength(160);
    expect(await json(`/block/${hash}/status`)).toMatchObject({ in_best_chain: true, next_best: null });
    const pre = await fetch(`${h.esploraUrl}/tx`, { method: "OPTIONS" });
    expect(pre.status).toBe(204);
  });

  it("funds an address and shows it as esplora does, mempool then chain", async () => {
    const txid = await h.faucet(FAUCETED, 123_456n);
    const tx = await json(`/tx/${txid}`);
    expect(tx.status).toEqual({ confirmed: false });
    expect(tx.vout).toContainEqual(
      expect.objectContaining({
        scriptpubkey: FAUCETED_SCRIPT,
        scriptpubkey_address: FAUCETED,
        value: 123_456,
      }),
    );
    expect(tx.vin[0].prevout.scriptpubkey_address).toBe(h.faucetAddress);
    expect(tx.vin[0].prevout.scriptpubkey_address).toMatch(/^bcrt1/);
    expect(tx.fee).toBeGreaterThan(0);
    expect((await json(`/address/${FAUCETED}/utxo`))[0]).toMatchObject({ txid, value: 123_456 });
    expect((await json("/mempool")).count).toBe(1);

    const [blockHash] = await h.mine(1);
    const status = await json(`/tx/${txid}/status`);
    expect(status).toMatchObject({ confirmed: true, block_hash: blockHash, block_height: h.tipHeight() });
    expect(await json(`/block/${blockHash}/txids`)).toEqual([expect.any(String), txid]);
    expect((await get(`/tx/${txid}/hex`)).text).toMatch(/^[0-9a-f]+$/);
    const stats = await json(`/address/${FAUCETED}`);
    expect(stats.chain_stats).toMatchObject({ tx_count: 1, funded_txo_sum: 123_456 });

    // The scripthash routes are the address routes under sha256(script), byte-reversed.
    const scripthash = Buffer.from(createHash("sha256").update(Buffer.from(FAUCETED_SCRIPT, "hex")).digest())
      .reverse()
      .toString("hex");
    expect((await json(`/scripthash/${scripthash}/txs`)).map((t: { txid: string }) => t.txid)).toEqual([
      txid,
    ]);
    expect((await json(`/scripthash/${scripthash}/utxo`))[0].txid).toBe(txid);
  });

  it("proves inclusion with a merkle branch that hashes to the block's root", async () => {
    const a = await h.faucet(FAUCETED, 1000n);
    const b = await h.faucet(FAUCETED, 2000n);
    const [blockHash] = await h.mine(1);
    const root = (await json(`/block/${blockHash}`)).merkle_root as string;
    const sha256d = (x: Buffer) =>
      createHash("sha256").update(createHash("sha256").update(x).digest()).digest();
    for (const txid of [a, b]) {
      const proof = await json(`/tx/${txid}/merkle-proof`);
      let node = Buffer.from(txid, "hex").reverse();
      let pos = proof.pos as number;
      for (const sibling of proof.merkle as string[]) {
        const s = Buffer.from(sibling, "hex").reverse();
        node = pos % 2 === 0 ? sha256d(Buffer.concat([node, s])) : sha256d(Buffer.concat([s, node]));
        pos >>= 1;
      }
      expect(Buffer.from(node).reverse().toString("hex")).toBe(root);
    }
  });

  it("tells who spent an output, and takes raw transactions with POST /tx", async () => {
    const txid = await h.faucet(FAUCETED, 5000n);
    const tx = await json(`/tx/${txid}`);
    const spends = await json(`/tx/${tx.vin[0].txid}/outspends`);
    expect(spends[tx.vin[0].vout]).toMatchObject({ spent: true, txid, vin: 0 });
    expect(await json(`/tx/${txid}/outspend/0`)).toEqual({ spent: false });
    const rebroadcast = await fetch(`${h.esploraUrl}/tx`, { method: "POST", body: "00ff" });
    expect(rebroadcast.status).toBe(400);
    expect(await rebroadcast.text()).toMatch(/^sendrawtransaction RPC error/);
  });

  it("pages confirmed history 25 at a time", async () => {
    const address = "bcrt1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qzf4jry";
    for (let i = 0; i < 27; i++) {
      await h.faucet(address, 600n + BigInt(i));
      if (i % 20 === 19) await h.mine(1);
    }
    await h.mine(1);
    const first = await json(`/address/${address}/txs`);
    expect(first).toHaveLength(25);
    const rest = await json(`/address/${address}/txs/chain/${first[24].txid}`);
    expect(rest).toHaveLength(2);
    expect(new Set([...first, ...rest].map((t: { txid: string }) => t.txid)).size).toBe(27);
  });

  it("reorganises: the replaced block leaves the best chain and its transactions return to the mempool", async () => {
    const txid = await h.faucet(FAUCETED, 7000n);
    const [old] = await h.mine(1);
    const height = h.tipHeight();
    const hashes = await h.reorg(1);
    expect(hashes).toHaveLength(2);
    expect(h.tipHeight()).toBe(height + 1);
    expect(await json(`/block/${old}/status`)).toEqual({ in_best_chain: false });
    expect(await json(`/tx/${txid}/status`)).toEqual({ confirmed: false });
  });

  it("serves fee estimates and a fixed price feed", async () => {
    expect(await json("/fee-estimates")).toMatchObject({ "1": expect.any(Number), "6": expect.any(Number) });
    expect(await json("/api/v1/price/usd")).toEqual({ currency: "USD", price: 100000 });
    expect((await json("/api/v1/price/EUR")).price).toBeGreaterThan(0);
    expect((await get("/api/v1/price/XYZ")).status).toBe(404);
  });

  it("funds and mines through the HTTP endpoints the CLI uses", async () => {
    const post = async (path: string, body: unknown) =>
      (await fetch(`${h.esploraUrl}${path}`, { method: "POST", body: JSON.stringify(body) })).json();
    const { txid } = await post("/faucet", { address: FAUCETED, sats: 10_000 });
    expect(txid).toMatch(/^[0-9a-f]{64}$/);
    const { hashes } = await post("/mine", { blocks: 2 });
    expect(hashes).toHaveLength(2);
    expect((await json(`/tx/${txid}/status`)).confirmed).toBe(true);
  });

  it("keeps a held transaction in the mempool however many blocks are mined, and mines the others", async () => {
    const post = async (path: string, body: unknown) =>
      (await fetch(`${h.esploraUrl}${path}`, { method: "POST", body: JSON.stringify(body) })).json();
    const other = await h.faucet(FAUCETED, 30_000n);
    const held = await h.faucet(FAUCETED, 20_000n);
    await post("/hold", { txid: held });
    await post("/mine", { blocks: 3 });
    expect(await json(`/tx/${held}/status`)).toEqual({ confirmed: false });
    expect((await json(`/tx/${other}/status`)).confirmed).toBe(true);
  });

  it("serves the versioned storage API under /storage, where regtest's default storage setting points", async () => {
    expect(new URL(DEFAULT_SERVERS.regtest.storage).pathname).toBe("/storage");
    expect(h.storageUrl).toBe(`${h.esploraUrl}/storage`);
    const keys = storageKeysOfWords(
      "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
    );
    const store = openSealedStore({ url: h.storageUrl, keys, network: "regtest" });
    expect(await store.get("manager")).toBeNull();
    await store.put([{ name: "manager", version: 0n, value: new Uint8Array([1, 2, 3]) }]);
    expect(await store.get("manager")).toEqual({ version: 1n, value: new Uint8Array([1, 2, 3]) });
  });
});

describe("npm run harness", () => {
  it("prints its URLs and exits cleanly on SIGTERM", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "harness/main.ts"], {
      // Free ports for every listener, so the tests pass beside a world `npm start` is running.
      env: {
        ...process.env,
        ESPLORA_PORT: "0",
        LIGHTNING_PORT: "0",
        LIGHTNING_WS_PORT: "0",
        LNURL_PORT: "0",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes("Cashu mint 2")) resolve();
      });
      child.on("exit", () => reject(new Error(`exited early: ${out}`)));
    });
    const url = out.match(/Esplora API\s+(\S+)/)?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Number(await (await fetch(`${url}/blocks/tip/height`)).text())).toBeGreaterThan(0);
    const mint = out.match(/Cashu mint\s+(\S+)/)?.[1];
    expect(mint).toBe(`${url}/cashu`);
    expect((await (await fetch(`${mint}/v1/info`)).json()).nuts["12"]).toEqual({ supported: true });
    const code = await new Promise<number | null>((resolve) => {
      child.removeAllListeners("exit");
      child.on("exit", (c) => resolve(c));
      child.kill("SIGTERM");
    });
    expect(code).toBe(0);
  });
});
