/**
 * The nostr services inside the whole local world: on its one port beside the Esplora API and the lightning
 * proxy, the seeded people's lightning addresses paid through the world's node, people added over HTTP and
 * with the CLI.
 */
import { spawn } from "node:child_process";
import { SimplePool, useWebSocketImplementation as poolWebSocket } from "nostr-tools/pool";
import { nip19 } from "nostr-tools";
import { verifyEvent } from "nostr-tools/pure";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { decodeBolt11 } from "../../src/engine/parse/bolt11";
import { postJson } from "../http";
import { type Harness, startHarness } from "../world";

poolWebSocket(WebSocket);

describe("the local world's nostr services", () => {
  let h: Harness;
  const pool = new SimplePool();

  beforeAll(async () => {
    h = await startHarness({ port: 0 });
  });
  afterAll(async () => {
    pool.destroy();
    await h?.stop();
  });

  it("serve the relay, the cache service and Blossom on the world's port", () => {
    expect(h.nostr.relayUrl).toBe(`ws://127.0.0.1:${h.port}/nostr`);
    expect(h.nostr.cacheUrl).toBe(`${h.esploraUrl}/primal`);
    expect(h.nostr.blossomUrl).toBe(`${h.esploraUrl}/blossom`);
  });

  it("publish the seeded people, with their follows, readable by an outside client", async () => {
    expect(h.nostr.seeded.length).toBeGreaterThanOrEqual(5);
    const pubkeys = h.nostr.seeded.map((p) => p.pubkey);
    const profiles = await pool.querySync([h.nostr.relayUrl], { kinds: [0], authors: pubkeys });
    expect(profiles).toHaveLength(h.nostr.seeded.length);
    for (const e of profiles) {
      expect(verifyEvent(e)).toBe(true);
      const p = h.nostr.seeded.find((s) => s.pubkey === e.pubkey)!;
      const content = JSON.parse(e.content);
      expect(content).toMatchObject({ name: p.name, picture: p.picture, lud16: p.lud16 });
      expect(p.name.length).toBeGreaterThanOrEqual(6);
      expect(p.npub).toBe(nip19.npubEncode(p.pubkey));
      expect(p.lud16).toMatch(/^[a-z0-9]+@127\.0\.0\.1:\d+$/);
    }
    const follows = await pool.querySync([h.nostr.relayUrl], { kinds: [3], authors: [pubkeys[0]!] });
    expect(follows[0]!.tags.filter((t) => t[0] === "p").every((t) => pubkeys.includes(t[1]!))).toBe(true);
  });

  it("answer a seeded person's lightning address with an invoice of the world's node, and that invoice is paid", async () => {
    const alice = h.nostr.seeded[0]!;
    const [name, domain] = alice.lud16!.split("@");
    const params = await (await fetch(`http://${domain}/.well-known/lnurlp/${name}`)).json();
    expect(params).toMatchObject({ tag: "payRequest" });
    expect(JSON.parse(params.metadata)).toContainEqual(["text/identifier", alice.lud16]);
    const { pr } = await (await fetch(`${params.callback}?amount=21000`)).json();
    const invoice = decodeBolt11(pr)!;
    expect(invoice.payeePubkey).toBe(h.lightning.pubkey);
    expect(invoice.amountMsat).toBe(21_000n);
    // Paid over a channel to the world's node, as a wallet pays it.
    const paid = await postJson(h.esploraUrl, "/ln/pay", { bolt11: pr });
    expect(paid.status).toBe("succeeded");
    expect(h.lnurl.invoices.some((i) => i.name === name && i.bolt11 === pr)).toBe(true);
  }, 180_000);

  it("add a person over HTTP: found by the cache service, with a picture and a lightning address", async () => {
    const p = await postJson(h.esploraUrl, "/nostr/seed", { name: "Grace Hopper", display_name: "Grace" });
    expect(nip19.decode(p.nsec).type).toBe("nsec");
    expect(p.npub).toBe(nip19.npubEncode(p.pubkey));
    expect(p.lud16).toMatch(/^grace-hopper@127\.0\.0\.1:\d+$/);
    expect((await fetch(p.picture)).headers.get("content-type")).toBe("image/png");
    const found = await postJson(h.esploraUrl, "/primal", ["user_search", { query: "grace hop", limit: 10 }]);
    expect(found.map((e: { pubkey: string }) => e.pubkey)).toEqual([p.pubkey]);
    const own = await postJson(h.esploraUrl, "/nostr/seed", {
      name: "henrietta",
      lud16: "henri@elsewhere.example",
    });
    expect(own.lud16).toBe("henri@elsewhere.example");
    const bad = await fetch(`${h.esploraUrl}/nostr/seed`, {
      method: "POST",
      body: JSON.stringify({ name: "" }),
    });
    expect(bad.status).toBe(400);
  });

  it("add a person with the CLI", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "harness/cli.ts", "seed", "ivanstack", "--about", "cli"],
      {
        env: { ...process.env, ESPLORA_URL: h.esploraUrl },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    const npub = out.match(/npub\s+(npub1\w+)/)?.[1];
    expect(npub).toBeTruthy();
    const pubkey = nip19.decode(npub!).data as string;
    const [profile] = await postJson(h.esploraUrl, "/primal", ["user_profile", { pubkey }]);
    expect(JSON.parse(profile.content)).toMatchObject({ name: "ivanstack", about: "cli" });
  }, 60_000);
});
