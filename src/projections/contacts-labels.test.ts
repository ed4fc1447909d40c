import { describe, expect, it } from "vitest";
import type { ContactRecord } from "../crdt/doc";
import { shownLabels, withContacts } from "./contacts";
import type { ActivityItem } from "./activity";

const ALICE = "8f14e45f-ceea-467a-9b36-8a2d4bd1e7b1";
const contact: ContactRecord = {
  id: ALICE,
  name: "Alice",
  npub: null,
  ln_address: null,
  lnurl: null,
  image_url: null,
  is_followed: false,
};

describe("a request to a contact", () => {
  it("shows the payer its note, never the contact's internal id, which still links the payment to the contact", () => {
    const labels = [ALICE, "pizza"];
    expect(shownLabels(labels, { [ALICE]: contact })).toEqual(["pizza"]);
    expect(shownLabels([ALICE], { [ALICE]: contact })).toEqual([]);
    expect(shownLabels(["pizza"], {})).toEqual(["pizza"]);
    const row: ActivityItem = {
      id: "h",
      kind: "Lightning",
      labels,
      contacts: [],
      amount_sats: 1n,
      inbound: true,
      last_updated: 1,
      privacy_level: "NotAvailable",
      seen_at: 1,
      dropped: false,
    };
    expect(withContacts([row], { [ALICE]: contact })[0]).toMatchObject({
      labels: ["pizza"],
      contacts: [ALICE],
    });
  });
});
