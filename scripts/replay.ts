// Folds a mutiny-state.json and prints the views as JSON: the same file gives the same bytes every run.
//   npm run replay -- mutiny-state.json            (asks nothing; the password comes from WALLET_PASSWORD)
import { readFile } from "node:fs/promises";
import { replayStateFile } from "../src/commands/host/replay";
import { initCrdtNode } from "../src/crdt/node";

const file = process.argv[2];
if (!file) {
  console.error("Usage: npm run replay -- FILE   (set WALLET_PASSWORD to the file's password)");
  process.exit(2);
}
await initCrdtNode();
const result = await replayStateFile(await readFile(file, "utf8"), process.env.WALLET_PASSWORD ?? "");
if (result.ok) process.stdout.write(`${result.json}\n`);
else {
  console.error(result.error);
  process.exit(1);
}
