import type { Needs } from "../context";
import type { Handlers } from "../feature";
import { features } from "../features";

/**
 * One handler per command, as each feature declares them; the wallet-lifecycle commands (unlock, password,
 * export, import, restore, delete) use the host's lifecycle port (`lifecycle-port.ts`).
 */
export const handlers: Handlers = Object.assign({}, ...features.map((f) => f.handlers));

/**
 * What each command needs before its handler runs, as each feature declares it: the host waits for a
 * starting engine and refuses a command that needs the seed while the wallet is locked.
 */
export const needs: Needs = Object.assign({}, ...features.map((f) => f.needs ?? {}));
