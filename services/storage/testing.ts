import type { Server } from "node:http";
import { afterAll, beforeAll } from "vitest";
import { serveStorage } from "./serve";
import { type StorageService, startStorage } from "./service";

/**
 * The storage server (PGlite) on its own port for one test file: started before the file's tests (the
 * database created, so the first test does not wait on it) and stopped after them.
 */
export const storageForTests = (timeoutMs?: number) => {
  let service: StorageService | undefined;
  let served: { url: string; server: Server } | undefined;
  beforeAll(async () => {
    service = startStorage();
    served = await serveStorage(service);
    await service.db();
  }, timeoutMs);
  afterAll(async () => {
    served?.server.close();
    await service?.stop();
  });
  const started = <T>(x: T | undefined): T => {
    if (x === undefined) throw new Error("The storage server has not started");
    return x;
  };
  return {
    get service() {
      return started(service);
    },
    get url() {
      return started(served).url;
    },
  };
};

/**
 * A database of its own on the PostgreSQL that `adminUrl` names (a role that may create databases), for one
 * test file: `create` before its tests, `drop` after them.
 */
export const ownPostgresDatabase = (adminUrl: string, prefix: string) => {
  const name = `${prefix}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = async (sql: string) => {
    const { default: pg } = await import("pg");
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  return {
    url: adminUrl.replace(/\/[^/]*$/, `/${name}`),
    create: () => admin(`CREATE DATABASE ${name}`),
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
};
