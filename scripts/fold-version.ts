import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A digest of the code that folds the log (the projections, the CRDT document's helpers, the events'
 * upcasts), given to the app as `__FOLD_VERSION__`: a snapshot of the folded states made by other code is
 * never read, so a change to any fold is never hidden behind a stale snapshot (src/commands/host/snapshot.ts).
 */
export const foldVersion = (root: string): string => {
  const projections = readdirSync(join(root, "src/projections"))
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .sort()
    .map((f) => `src/projections/${f}`);
  const hash = createHash("sha256");
  for (const file of [...projections, "src/crdt/doc.ts", "src/events/upcast.ts"])
    hash.update(file).update(readFileSync(join(root, file)));
  return hash.digest("hex").slice(0, 16);
};
