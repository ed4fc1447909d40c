import { describe, expect, it } from "vitest";
import bolt11 from "../../engine/parse/vectors/bolt11.json";
import { invoicesIn, noteBeside } from "./chat-invoices";

const invoice = bolt11.valid.find((v) => v.network === "bitcoin")?.invoice ?? "";

describe("a request written in a chat", () => {
  it("shows its note without the payment link: the words beside it, as written", () => {
    const link = `bitcoin:BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4?amount=0.00025&lightning=${invoice}`;
    const text = `lunch on Friday ${link}`;
    const found = invoicesIn(text, "bitcoin");
    expect(found.map((f) => f.original)).toEqual([link]);
    expect(noteBeside(text, found)).toBe("lunch on Friday");
    // A bare invoice, with words on both sides and lines kept.
    const two = `for the\\ntickets ${invoice} thanks`.replace("\\n", "\n");
    expect(noteBeside(two, invoicesIn(two, "bitcoin"))).toBe("for the\ntickets thanks");
    // A request with no note leaves nothing to show; a message without invoices keeps its text.
    expect(noteBeside(link, invoicesIn(link, "bitcoin"))).toBe("");
    expect(noteBeside("see you", invoicesIn("see you", "bitcoin"))).toBe("see you");
  });
});
