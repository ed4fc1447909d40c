import type { NewEvent } from "../../events/make";

/**
 * `f` over custodian `one`, or over every custodian of `all` when none is named, its events in order. A named
 * custodian's failure is the caller's (in the words `named` gives it); one of all that fails is passed over,
 * to be done at the next check or start.
 */
export const overCustodians = async (
  one: string | undefined,
  all: () => readonly string[],
  f: (custodian: string) => Promise<readonly NewEvent[]>,
  named: (e: unknown) => unknown = (e) => e,
): Promise<NewEvent[]> => {
  const events: NewEvent[] = [];
  for (const custodian of one ? [one] : all()) {
    try {
      events.push(...(await f(custodian)));
    } catch (e) {
      if (one) throw named(e);
    }
  }
  return events;
};
