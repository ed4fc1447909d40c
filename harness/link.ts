/**
 * A TCP forwarder to one of the world's ports, for tests that play the network going away and coming back:
 * `down` drops every connection and stops listening, `up` listens again on the same port.
 */
import { type AddressInfo, connect, createServer, type Server, type Socket } from "node:net";

export class Link {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  /** The port it listens on (chosen by the first `up`, kept after). */
  port = 0;
  constructor(private readonly target: number) {}

  async up(): Promise<void> {
    const server = createServer((s) => {
      const upstream = connect(this.target, "127.0.0.1");
      for (const x of [s, upstream]) {
        this.sockets.add(x);
        x.on("close", () => this.sockets.delete(x));
        x.on("error", () => x.destroy());
      }
      s.pipe(upstream);
      upstream.pipe(s);
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", () => resolve()));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A link to the server at `url` (its port on this machine), up. */
export const linkUpTo = async (url: string): Promise<Link> => {
  const link = new Link(Number(new URL(url).port));
  await link.up();
  return link;
};
