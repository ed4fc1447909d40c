import { base64 } from "@scure/base";
import type { DBCore, DBCoreTable } from "dexie";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { newVaultKey, openValue, sealValue, unlockVault, vaultCheck } from "../src/commands/wallet/at-rest";
import { WRONG_PASSWORD_TEXT, WrongPassword } from "../src/errors";
import { makeStateCipher } from "../src/commands/wallet/state-cipher";
import { type Envelope, VAULT_CORRUPT_TEXT, VaultCorrupt } from "../src/engine/vault";
import { WalletDb } from "../src/events/db";
import { KV } from "../src/events/storage-keys";
import { ok, openOfflineHost, setFirstPassword } from "../src/commands/offline.testing";

/** Weak KDF parameters through the explicit test option, so each run takes milliseconds. */
const weak = { iterations: 1, allowWeak: true };
const password = fc.oneof(
  fc.string({ minLength: 1, maxLength: 24 }),
  fc.string({ minLength: 1, maxLength: 12, unit: "grapheme" }),
);
const jsonValue = fc.jsonValue().filter((v) => v !== null);
const blob = fc.uint8Array({ minLength: 0, maxLength: 300 });

const isClearRejection = (e: unknown): boolean =>
  (e instanceof VaultCorrupt && e.message === VAULT_CORRUPT_TEXT) ||
  (e instanceof WrongPassword && e.message === WRONG_PASSWORD_TEXT);

const rejection = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => "opened",
    (e: unknown) => e,
  );

const flipBit = (b64: string, bit: number): string => {
  const bytes = base64.decode(b64);
  const i = bit % (bytes.length * 8);
  bytes[i >> 3]! ^= 1 << (i & 7);
  return base64.encode(bytes);
};

const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v));

describe("secrets at rest", () => {
  it("open(seal(x)) = x for any engine blob, secret value and password", async () => {
    await fc.assert(
      fc.asyncProperty(password, blob, jsonValue, async (pw, bytes, value) => {
        const key = await newVaultKey(pw, weak);
        const sealedBlob = copy(await sealValue(key, "ln/monitor", bytes));
        const sealedSeed = copy(await sealValue(key, KV.seed, value));
        // What is stored is an envelope, never the value.
        expect(sealedBlob).toMatchObject({ format: "vault" });
        expect(sealedSeed).toMatchObject({ format: "vault" });
        // A key unlocked from the stored parameters and the password opens both.
        const again = await unlockVault(copy(await vaultCheck(key)), pw);
        expect(await openValue(again, "ln/monitor", sealedBlob)).toEqual(bytes);
        expect(await openValue(again, KV.seed, sealedSeed)).toEqual(copy(value));
      }),
      { numRuns: 40 },
    );
  });

  it("a single changed bit of ciphertext, salt or nonce is refused with a clear error", async () => {
    const field = fc.constantFrom("ciphertext", "salt", "nonce", "check");
    await fc.assert(
      fc.asyncProperty(password, blob, field, fc.nat(), async (pw, bytes, which, bit) => {
        const key = await newVaultKey(pw, weak);
        const envelope = copy((await sealValue(key, "ln/x", bytes)) as Envelope) as {
          kdf: { saltB64: string; checkB64: string };
          cipher: { nonceB64: string };
          ciphertextB64: string;
        };
        if (which === "ciphertext") envelope.ciphertextB64 = flipBit(envelope.ciphertextB64, bit);
        if (which === "salt") envelope.kdf.saltB64 = flipBit(envelope.kdf.saltB64, bit);
        if (which === "nonce") envelope.cipher.nonceB64 = flipBit(envelope.cipher.nonceB64, bit);
        if (which === "check") envelope.kdf.checkB64 = flipBit(envelope.kdf.checkB64, bit);
        expect(isClearRejection(await rejection(openValue(key, "ln/x", envelope)))).toBe(true);
        // Unlocking from a changed check value is refused the same way.
        expect(isClearRejection(await rejection(unlockVault(envelope, pw)))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------
// Crash consistency: a password change interrupted after any number of IndexedDB operations leaves the
// wallet openable with the old password or the new one, never neither, with every secret intact.

const cipher = makeStateCipher({ iterations: 1, allowWeak: true });

class InjectedCrash extends Error {}

/** A database whose IndexedDB operations fail, as a crash would cut them, once `budget` runs out. */
const crashingDb = (name: string) => {
  const state = { budget: Number.POSITIVE_INFINITY };
  const db = new WalletDb(name);
  const guard =
    <A, R>(f: (req: A) => Promise<R>) =>
    (req: A): Promise<R> => {
      if (state.budget <= 0) return Promise.reject(new InjectedCrash("crashed"));
      state.budget--;
      return f(req);
    };
  db.use({
    stack: "dbcore",
    name: "crash",
    create: (down: DBCore): DBCore => ({
      ...down,
      table: (tableName: string): DBCoreTable => {
        const t = down.table(tableName);
        return {
          ...t,
          get: guard((r) => t.get(r)),
          getMany: guard((r) => t.getMany(r)),
          query: guard((r) => t.query(r)),
          count: guard((r) => t.count(r)),
          mutate: guard((r) => t.mutate(r)),
          openCursor: guard((r) => t.openCursor(r)),
        };
      },
    }),
  });
  return { db, state };
};

let crashRun = 0;

describe("password change crash consistency", () => {
  it("after a crash at any point the old or the new password opens the same secrets", async () => {
    const maybePassword = fc.option(fc.string({ minLength: 1, maxLength: 12 }), { nil: "" });
    await fc.assert(
      fc.asyncProperty(
        maybePassword,
        maybePassword,
        fc.integer({ min: 0, max: 40 }),
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 4 }),
        async (from, to, crashAfter, blobs) => {
          fc.pre(from !== to);
          const name = `crash-${++crashRun}`;
          const { db, state } = crashingDb(name);
          const host = await openOfflineHost(db, { cipher, kdf: weak });
          ok(await host.run({ _tag: "CreateWallet" }));
          ok(await host.run({ _tag: "MarkBackedUp" }));
          const { words } = ok(await host.run({ _tag: "ShowSeed" })) as { words: string[] };
          await host.secrets.putEngineBlobs(blobs.map((value, i) => ({ key: `ln/blob/${i}`, value })));
          if (from) await setFirstPassword(host, from);

          state.budget = crashAfter;
          const answer = await host.run({
            _tag: "ChangePassword",
            existing: from,
            password: to,
            confirm: to,
          });
          host.stop();
          db.close();

          // Start again, as after the tab was closed.
          const reopened = await openOfflineHost(new WalletDb(name), { cipher, kdf: weak });
          const tryUnlock = async (pw: string) => {
            if (!reopened.locked) return pw === "" ? "open" : "no password asked";
            const a = await reopened.run({ _tag: "Unlock", password: pw });
            return a.ok ? "open" : a.error._tag;
          };
          const withNew = to === "" ? (reopened.locked ? "locked" : "open") : await tryUnlock(to);
          let opened = withNew === "open";
          if (!opened) opened = from === "" ? !reopened.locked : (await tryUnlock(from)) === "open";
          expect(opened).toBe(true);
          // A finished change is the new state.
          if (answer.ok) expect(withNew).toBe("open");
          expect(ok(await reopened.run({ _tag: "ShowSeed" }))).toEqual({ words });
          for (const [i, value] of blobs.entries())
            expect(await reopened.secrets.getEngineBlob(`ln/blob/${i}`)).toEqual(value);
        },
      ),
      { numRuns: 60 },
    );
  });
});
