/** Talking to the local world over HTTP, as tests, benches and the CLI do. */

/** POSTs JSON to the world (e.g. `/faucet`, `/mine`, `/ln/pay`) and answers the JSON reply. */
export const postJson = async (base: string, path: string, body: unknown) => {
  const r = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.json();
};

/** A bolt11 invoice of the world's node for `sats` (its `/ln/invoice`), as a payee outside the wallet asks. */
export const worldInvoice = async (base: string, sats: number): Promise<{ bolt11: string }> =>
  (await postJson(base, "/ln/invoice", { amount_sats: sats })) as { bolt11: string };

/** Waits until `url` answers (a server starting), up to 20 s. */
export const waitForUrl = async (url: string) => {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not start`);
};
