/** The storage server on its own HTTP port (the world mounts it under `/storage` of its server instead). */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PROTOCOL_VERSION, PROTOCOL_VERSION_HEADER, type StorageService } from "./service";

export const serveStorage = (
  service: StorageService,
  port = 0,
  host = "127.0.0.1",
): Promise<{ url: string; server: Server }> => {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const call = (req.url ?? "").match(/^\/storage\/([A-Za-z]+)$/)?.[1];
      if (req.method !== "POST" || !call) {
        res.writeHead(404).end();
        return;
      }
      service.handle(call, Buffer.concat(chunks), req.headers).then(
        (r) => {
          res.writeHead(r.status ?? 200, {
            "content-type": r.bytes ? "application/octet-stream" : "text/plain",
            [PROTOCOL_VERSION_HEADER]: PROTOCOL_VERSION,
          });
          res.end(r.bytes ?? r.text ?? "");
        },
        () => res.writeHead(500).end(),
      );
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () =>
      resolve({ url: `http://${host}:${(server.address() as AddressInfo).port}/storage`, server }),
    );
  });
};
