import "fake-indexeddb/auto";
import { initCrdtNode } from "./crdt/node";

await initCrdtNode();
