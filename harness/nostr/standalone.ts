/**
 * The nostr services alone on a free port, without the chain or the lightning node: lighter for tests and
 * benches that need only the relay, the cache service and Blossom.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Hostility } from "../hostile";
import type { LnurlService } from "../lnurl";
import { type NostrWorld, startNostr } from "./world";

export const serveNostr = async (
  /** `lnurl` and `zapSecret`: the LNURL service whose addresses people get, and the key it signs receipts with. */
  opts: { host?: string; hostility?: Hostility; lnurl?: LnurlService; zapSecret?: Uint8Array } = {},
): Promise<{ nostr: NostrWorld; base: string; stop: () => Promise<void> }> => {
  const server = createServer((_req, res) => {
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("Not found");
  });
  const host = opts.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve());
  });
  const base = `http://${host}:${(server.address() as AddressInfo).port}`;
  const nostr = startNostr(server, base, {
    ...(opts.hostility ? { hostility: opts.hostility } : {}),
    ...(opts.lnurl ? { lnurl: opts.lnurl } : {}),
    ...(opts.zapSecret ? { zapSecret: opts.zapSecret } : {}),
  });
  return {
    nostr,
    base,
    stop: () =>
      new Promise<void>((resolve) => {
        nostr.stop();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
