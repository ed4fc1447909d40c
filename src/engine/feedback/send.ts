/**
 * The feedback service's protocol (spec 2, feedback over HTTP): `POST {host}/v1/feedback` as a multipart
 * form of `description` (JSON), `contact` (JSON with `nostr` or `email`) and `feedback_type`, with any
 * images and the redacted logs as files. The answer must be ok and its status field OK.
 */
import { Schema } from "effect";
import type { FetchFn } from "../http/bounded";

export interface FeedbackImage {
  readonly name: string;
  readonly type: string;
  readonly bytes: Uint8Array;
}

export interface FeedbackForm {
  readonly userType: "nostr" | "email";
  readonly id: string;
  readonly feedback: string;
  /** The redacted log lines, or null when the owner did not include them. */
  readonly logs: readonly string[] | null;
  readonly images: readonly FeedbackImage[];
}

/** The service refused or failed: `status` is its HTTP status text (empty when it gave none). */
export class FeedbackRefused extends Error {
  constructor(readonly statusText: string) {
    super(statusText || "The feedback service did not accept the feedback");
  }
}

const Answer = Schema.Struct({ status: Schema.String });

export const feedbackUrl = (host: string): string => `${host.replace(/\/+$/, "")}/v1/feedback`;

export const feedbackBody = (form: FeedbackForm): FormData => {
  const body = new FormData();
  body.append("description", JSON.stringify({ feedback: form.feedback, has_logs: form.logs !== null }));
  body.append("contact", JSON.stringify(form.userType === "nostr" ? { nostr: form.id } : { email: form.id }));
  body.append("feedback_type", "general");
  if (form.logs !== null)
    body.append("logs", new Blob([form.logs.join("\n")], { type: "text/plain" }), "logs.txt");
  form.images.forEach((img, i) => {
    body.append(`image_${i}`, new Blob([new Uint8Array(img.bytes)], { type: img.type }), img.name);
  });
  return body;
};

/** Sends the form; throws FeedbackRefused unless the answer is ok with status OK. */
export const sendFeedback = async (http: FetchFn, host: string, form: FeedbackForm): Promise<void> => {
  const res = await http(feedbackUrl(host), { method: "POST", body: feedbackBody(form) });
  if (!res.ok) throw new FeedbackRefused(res.statusText);
  let answer: { status: string };
  try {
    answer = Schema.decodeUnknownSync(Answer)(await res.json());
  } catch {
    throw new FeedbackRefused("");
  }
  if (answer.status !== "OK") throw new FeedbackRefused(answer.status.slice(0, 200));
};
