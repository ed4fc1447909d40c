/**
 * A feature of the wallet as the host sees it: the commands it handles, what each needs before its handler
 * runs, and its attachment to the host (the hooks its engine calls and what it does around commands). Each
 * feature folder (`src/commands/<feature>/`) answers one in its `index.ts`, and `features.ts` lists them:
 * the host names no feature.
 */
import type { Attach } from "./attached";
import type { CommandTag } from "./command";
import type { Handler, Needs } from "./context";

export type Handlers = { readonly [K in CommandTag]?: Handler<K> };

export interface Feature {
  readonly handlers: Handlers;
  readonly needs?: Needs;
  readonly attachment?: Attach;
}
