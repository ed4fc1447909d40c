import { decode } from "nostr-tools/nip19";
import { finalizeEvent, getPublicKey } from "nostr-tools/pure";
import { Relay, useWebSocketImplementation as relayWebSocket } from "nostr-tools/relay";
import WebSocket from "ws";
import { createWallet, expect, test } from "./fixtures";

relayWebSocket(WebSocket);

test("a profile edit the relay refuses for good is shown as refused, not as waiting", async ({
  page,
  esplora,
}) => {
  test.setTimeout(180_000);
  await createWallet(page);
  await page.goto("/settings/nostrkeys");
  await page.getByRole("button", { name: "Reveal private key" }).click();
  const nsec = (await page.getByTestId("nsec").textContent()) ?? "";
  const decoded = decode(nsec);
  if (decoded.type !== "nsec") throw new Error("not an nsec");
  const sk = decoded.data;

  // The owner deleted their profile from another nostr client (NIP-09): the relay now blocks older versions.
  const relay = await Relay.connect(`${esplora.replace(/^http/, "ws")}/nostr`);
  try {
    await relay.publish(
      finalizeEvent(
        {
          kind: 5,
          created_at: Math.floor(Date.now() / 1000) + 600,
          tags: [["a", `0:${getPublicKey(sk)}:`]],
          content: "",
        },
        sk,
      ),
    );
  } finally {
    relay.close();
  }

  await page.goto("/editprofile");
  await page.getByLabel("Name").fill("Refused Rita");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId("profile-failed")).toContainText("blocked: deleted by its author", {
    timeout: 60_000,
  });
  await expect(page.getByText("Waiting for a relay to publish your latest changes.")).toHaveCount(0);

  // After a reload the wallet still says so, and does not send it again.
  await page.reload();
  await expect(page.getByTestId("profile-failed")).toContainText("refused your latest changes");
});
