/**
 * The social-profile cache service lying as an attacker's would, under `/hostile/<scope>/primal` while that
 * scope's `primal` mode is set (`POST /hostile {"service":"primal","scope","mode"}`); the root stays honest.
 */
import type { ServerResponse } from "node:http";
import { type Event, finalizeEvent } from "nostr-tools/pure";
import type { HostileMode } from "../hostile";
import { CORS } from "../../services/nostr/http";

/** Whom the forged and wrong answers send the money to. */
export const ATTACKER_LUD16 = "thief@attacker.example";

const sendRaw = (res: ServerResponse, text: string) => {
  res.writeHead(200, { ...CORS, "content-type": "application/json" });
  res.end(text);
};

export const lieAsCache = (
  res: ServerResponse,
  mode: HostileMode<"primal">,
  honest: () => Event[],
  /** A validly signed profile of someone else (the wrong person). */
  stranger: () => Event,
) => {
  switch (mode) {
    case "not-an-array":
      return sendRaw(res, JSON.stringify({ events: honest() }));
    case "malformed-json": {
      const text = JSON.stringify(honest().length ? honest() : [{ kind: 0, content: "{}" }]);
      return sendRaw(res, text.slice(0, Math.max(2, Math.floor(text.length / 2))));
    }
    case "never-answers":
      return;
    case "huge-answer":
      return sendRaw(res, `[${JSON.stringify({ kind: 0, content: "x".repeat(50_000_000) })}]`);
    case "forged-events":
      return sendRaw(
        res,
        JSON.stringify(
          honest().map((e) => {
            if (e.kind !== 0) return { ...e, content: `${e.content} ` };
            let c: Record<string, unknown> = {};
            try {
              c = JSON.parse(e.content);
            } catch {
              // not a profile object: forge one
            }
            return { ...e, content: JSON.stringify({ ...c, lud16: ATTACKER_LUD16 }) };
          }),
        ),
      );
    case "wrong-person":
      return sendRaw(res, JSON.stringify(honest().map((e) => (e.kind === 0 ? stranger() : e))));
  }
};

/** A stranger's profile, validly signed, offering the attacker's lightning address. */
export const strangerProfile = (sk: Uint8Array): Event =>
  finalizeEvent(
    {
      kind: 0,
      created_at: Math.floor(Date.now() / 1000),
      tags: [],
      content: JSON.stringify({
        name: "stranger",
        display_name: "Not who you asked for",
        lud16: ATTACKER_LUD16,
      }),
    },
    sk,
  );
