/**
 * The world's feedback endpoint (spec 2, feedback over HTTP): `POST /v1/feedback` takes a multipart form with
 * `description` (JSON), `contact` (JSON with `nostr` or `email`), `feedback_type` and any attached files,
 * stores what it got and answers `{status: "OK"}`. `GET /v1/feedback` answers what was stored, newest last,
 * so tests read a submission back. Bad input is a 400 with the reason; the store keeps the last 100.
 */
import { HttpError, type RouteTable } from "../http";

export interface FeedbackFile {
  readonly name: string;
  readonly filename: string;
  readonly type: string;
  readonly size: number;
  /** A text file's content (the logs), up to 200 kB. */
  readonly text?: string;
}

export interface FeedbackEntry {
  readonly at: number;
  readonly feedback_type: string;
  readonly description: unknown;
  readonly contact: { readonly nostr?: string; readonly email?: string };
  readonly files: readonly FeedbackFile[];
}

const KEEP = 100;
/** Each JSON part at most this many characters. */
const MAX_PART = 1_000_000;

const jsonPart = (form: FormData, name: string): unknown => {
  const v = form.get(name);
  if (typeof v !== "string") throw new HttpError(400, `The form has no ${name} part`);
  if (v.length > MAX_PART) throw new HttpError(413, `The ${name} part is too large`);
  try {
    return JSON.parse(v);
  } catch {
    throw new HttpError(400, `The ${name} part is not JSON`);
  }
};

const contactOf = (v: unknown): FeedbackEntry["contact"] => {
  if (!v || typeof v !== "object" || Array.isArray(v)) throw new HttpError(400, "contact must be an object");
  const c = v as Record<string, unknown>;
  const nostr = typeof c.nostr === "string" ? c.nostr.slice(0, 200) : undefined;
  const email = typeof c.email === "string" ? c.email.slice(0, 200) : undefined;
  if (nostr === undefined && email === undefined) throw new HttpError(400, "contact needs nostr or email");
  return { ...(nostr !== undefined ? { nostr } : {}), ...(email !== undefined ? { email } : {}) };
};

/** Parses the multipart body; the boundary is the body's first line (the route sees the body only). */
export const parseFeedback = async (body: string): Promise<FeedbackEntry> => {
  const first = body.slice(0, 200).split("\r\n", 1)[0] ?? "";
  const boundary = first.startsWith("--") ? first.slice(2) : "";
  if (!/^[0-9A-Za-z'()+_,./:=?-]{1,70}$/.test(boundary))
    throw new HttpError(400, "Expected a multipart form");
  let form: FormData;
  try {
    form = await new Response(body, {
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    }).formData();
  } catch {
    throw new HttpError(400, "The multipart form cannot be read");
  }
  const type = form.get("feedback_type");
  if (typeof type !== "string" || type.length === 0 || type.length > 100)
    throw new HttpError(400, "feedback_type is required");
  const description = jsonPart(form, "description");
  const contact = contactOf(jsonPart(form, "contact"));
  const files: FeedbackFile[] = [];
  for (const [name, v] of form.entries()) {
    if (typeof v === "string") continue;
    const text = v.type.startsWith("text/") ? (await v.text()).slice(0, 200_000) : undefined;
    files.push({
      name,
      filename: v.name.slice(0, 200),
      type: v.type.slice(0, 100),
      size: v.size,
      ...(text !== undefined ? { text } : {}),
    });
  }
  return { at: Math.floor(Date.now() / 1000), feedback_type: type, description, contact, files };
};

export interface FeedbackService {
  readonly received: () => readonly FeedbackEntry[];
  readonly routes: RouteTable;
}

export interface FeedbackOptions {
  /** Where each entry is kept as well (the services' database). */
  readonly sink?: (entry: FeedbackEntry) => Promise<void>;
  /** Serve what was received (`GET /v1/feedback`, the local world's operator view); on by default. */
  readonly operatorView?: boolean;
}

export const startFeedback = (opts: FeedbackOptions = {}): FeedbackService => {
  const stored: FeedbackEntry[] = [];
  return {
    received: () => [...stored],
    routes: [
      [
        "POST",
        /^\/v1\/feedback\/?$/,
        async (_m, body) => {
          const entry = await parseFeedback(body);
          await opts.sink?.(entry);
          stored.push(entry);
          if (stored.length > KEEP) stored.shift();
          return { json: { status: "OK" } };
        },
      ],
      ...(opts.operatorView === false
        ? []
        : ([["GET", /^\/v1\/feedback\/?$/, () => ({ json: stored })]] as RouteTable)),
    ],
  };
};
