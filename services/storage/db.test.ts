/**
 * The services' PostgreSQL pool under a queue (when `STORAGE_POSTGRES_URL` names a role that may create
 * databases): a query that finds every connection busy for longer than pg's old 5 s waits its turn and is
 * answered, instead of failing as if the database were down.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openStorageDb, POOL_SIZE, type SqlDb } from "./db";
import { ownPostgresDatabase } from "./testing";

const postgresUrl = process.env.STORAGE_POSTGRES_URL;

describe.skipIf(!postgresUrl)("the PostgreSQL pool", () => {
  const own = ownPostgresDatabase(postgresUrl ?? "", "pool_queue");
  let db: SqlDb;
  beforeAll(async () => {
    await own.create();
    db = await openStorageDb(own.url);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await own.drop();
  });

  test("a query behind every busy connection waits its turn and is answered", async () => {
    const busy = Array.from({ length: POOL_SIZE }, () => db.query("SELECT pg_sleep(6)"));
    const queued = db.query<{ one: number }>("SELECT 1 AS one");
    await Promise.all(busy);
    expect((await queued).rows).toEqual([{ one: 1 }]);
  }, 60_000);
});
