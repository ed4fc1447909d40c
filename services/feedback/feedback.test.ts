import { describe, expect, it } from "vitest";
import { feedbackBody } from "../../src/engine/feedback/send";
import { startFeedback } from "./feedback";
import { HttpError } from "../http";

const post = async (svc: ReturnType<typeof startFeedback>, body: string) => {
  const [, re, route] = svc.routes[0]!;
  return route("/v1/feedback".match(re)!, body);
};

const encode = async (form: FormData) => new Response(form).text();

describe("the world's feedback endpoint", () => {
  it("stores the wallet's multipart form and answers OK", async () => {
    const svc = startFeedback();
    const body = await encode(
      feedbackBody({
        userType: "email",
        id: "me@example.com",
        feedback: "It works",
        logs: ["line one", "line two"],
        images: [{ name: "shot.png", type: "image/png", bytes: new Uint8Array([1, 2, 3]) }],
      }),
    );
    expect(await post(svc, body)).toEqual({ json: { status: "OK" } });
    const [got] = svc.received();
    expect(got?.contact).toEqual({ email: "me@example.com" });
    expect(got?.description).toEqual({ feedback: "It works", has_logs: true });
    expect(got?.feedback_type).toBe("general");
    expect(got?.files.map((f) => f.name)).toEqual(["logs", "image_0"]);
    expect(got?.files[0]?.text).toBe("line one\nline two");
  });

  it("answers bad input with a 400 and stores nothing", async () => {
    const svc = startFeedback();
    const noContact = new FormData();
    noContact.append("description", "{}");
    noContact.append("feedback_type", "general");
    const badJson = new FormData();
    badJson.append("description", "{");
    badJson.append("contact", '{"nostr":"npub1x"}');
    badJson.append("feedback_type", "general");
    for (const body of ["", "{}", "--x\r\nnonsense", await encode(noContact), await encode(badJson)]) {
      await expect(post(svc, body)).rejects.toBeInstanceOf(HttpError);
    }
    expect(svc.received()).toEqual([]);
  });
});
