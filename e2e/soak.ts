/**
 * A soak on a bad line, in Chromium, as a person meets it: the wallet app pays and is paid through its own
 * screens (Send, Receive) over and over while a seeded, logged chaos controller drops its line to the
 * world's proxy (`harness/chaos.ts`), adds 50-800 ms of latency, restarts the world's LSP node, reloads the
 * page (some mid-payment) and hides and freezes the tab. After each reload or return to the tab the person
 * pays at once. A refused or failed payment is tried again, as a person would. At the end the wallet's view
 * of its channels equals the LSP's to the sat, and no channel was closed.
 *
 * `npm run soak` runs the long form, `e2e/soak.spec.ts` with SOAK_PAYMENTS; the e2e suite a short one.
 */
import { type CDPSession, expect, type Page } from "@playwright/test";
import { postJson } from "../harness/http";
import { seeded } from "../harness/seeded";
import { createWallet, fundOnchain } from "./fixtures";
import { confirmChannel } from "./steps";

export interface ChromiumSoakOptions {
  readonly esplora: string;
  /** The chaos controller's scope: this wallet's line only. */
  readonly scope: string;
  readonly seed: number;
  readonly payments: number;
  /** Pays a node four hops past the LSP now and then, and once splits 700,000 sats over two paths. */
  readonly network: boolean;
  readonly log: (line: string) => void;
}

export interface ChromiumSoakReport {
  readonly attempted: number;
  readonly firstTime: number;
  readonly onRetry: number;
  /** Each refusal or failure seen before a payment ended, by what the person was told. */
  readonly refusals: Record<string, number>;
  /** Tries of a payment to the wallet made while the world's own paying node was stopped (the chaos's restart). */
  readonly payerDown: Record<string, number>;
  /** Line dropped → channels page online again (ms). */
  readonly reconnectMs: number[];
  /** Reload → the payment made at once is sent or received (ms). */
  readonly reloadMs: number[];
  /** Hidden and frozen tab shown again → the payment made at once is sent or received (ms). */
  readonly shownMs: number[];
  readonly chaos: string[];
  /** The wallet's side of its channels (home's balance less the reserves), and the LSP's node's view of it. */
  readonly walletSats: bigint;
  readonly lspSats: bigint;
  /** What the wallet can receive, and what the LSP's node can send it. */
  readonly walletInbound: bigint;
  readonly lspOutbound: bigint;
  /** Channels with the wallet the LSP had at most, and has at the end. */
  readonly channelsSeen: number;
  readonly channelsLeft: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const json = async (url: string) => {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return r.json();
};

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const spread = (xs: number[]) => `p50 ${pct(xs, 50)} ms, p95 ${pct(xs, 95)} ms (${xs.length})`;

export const chromiumSoakSummary = (r: ChromiumSoakReport): string =>
  [
    `payments attempted ${r.attempted}, succeeded first time ${r.firstTime}, on retry ${r.onRetry}`,
    `line dropped → channel online again: ${spread(r.reconnectMs)}`,
    `reload → payment made at once done: ${spread(r.reloadMs)}`,
    `hidden, frozen tab shown → payment made at once done: ${spread(r.shownMs)}`,
    `refusals: ${Object.keys(r.refusals).length === 0 ? "none" : ""}`,
    ...Object.entries(r.refusals).map(([why, n]) => `  ${n} × ${why}`),
    ...Object.entries(r.payerDown).map(([why, n]) => `not refusals: ${n} × ${why}`),
    `channels: the wallet's side ${r.walletSats} sats, the LSP's view ${r.lspSats} sats; the wallet can receive ${r.walletInbound} sats, the LSP can send ${r.lspOutbound} sats; ${r.channelsLeft} of ${r.channelsSeen} channels still open`,
  ].join("\n");

/** The wallet reaches its peers through the chaos controller's `scope` (set before the app loads). */
export const soakLine = (page: Page, esplora: string, scope: string) =>
  page.addInitScript(({ proxy }) => localStorage.setItem("USER_SETTINGS_proxy", proxy), {
    proxy: `${esplora.replace(/^http/, "ws")}/chaos/${scope}`,
  });

/**
 * A new wallet on `page` (its line through the chaos controller's `scope`) with `fund` sats on-chain, `channel`
 * of them swapped into a channel with the LSP, confirmed; answers its lightning node id.
 */
export const soakWallet = async (
  page: Page,
  esplora: string,
  scope: string,
  { fund, channel }: { fund: number; channel: number },
): Promise<string> => {
  await soakLine(page, esplora, scope);
  await createWallet(page);
  await fundOnchain(page, esplora, fund);
  await page.getByRole("link", { name: "Swap to lightning" }).click();
  await page.getByLabel("Amount (sats)").fill(String(channel));
  await expect(page.getByText(/Network fee: about \d+ sats/)).toBeVisible();
  await page.getByRole("button", { name: "Open channel" }).click();
  await page.getByRole("dialog", { name: "Channel opening" }).getByRole("button", { name: "Home" }).click();
  await confirmChannel(page, esplora, /^[1-9][\d,]{4,} sats$/);
  const id = await walletNodeId(page);
  await page.getByRole("link", { name: "Home" }).first().click();
  return id;
};

/** The wallet's lightning node id, from the admin page (a page load; setup only). */
export const walletNodeId = async (page: Page): Promise<string> => {
  await page.goto("/settings/admin");
  const id = page.getByTitle(/^0[23][0-9a-f]{64}$/);
  await expect(id).toBeVisible({ timeout: 120_000 });
  return (await id.getAttribute("title")) ?? "";
};

/** The page's visibility set as the browser sets it (a string: benches compile functions with helpers). */
const visibility = (state: "hidden" | "visible") => `(() => {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "${state}" });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => ${state === "hidden"} });
  document.dispatchEvent(new Event("visibilitychange"));
})()`;

/** Hides the tab and freezes it (its page and workers run nothing) for `ms`, then shows it again. */
export const hideAndFreeze = async (page: Page, cdp: CDPSession, ms: number) => {
  // Headless Chromium keeps every page visible (another tab in front, a minimized window) and
  // `Page.setWebLifecycleState` does not freeze a visible page: the tab's visibility is set as the browser
  // would, and its threads are paused in the debugger, the page's and each worker's.
  await page.evaluate(visibility("hidden"));
  const workers: string[] = [];
  const attached = (e: { sessionId: string; targetInfo: { type: string } }) => {
    if (e.targetInfo.type === "worker") workers.push(e.sessionId);
  };
  cdp.on("Target.attachedToTarget", attached);
  await cdp.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  await sleep(200);
  const toWorkers = async (method: string) => {
    for (const [i, sessionId] of workers.entries())
      await cdp
        .send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id: 9000 + i, method }) })
        .catch(() => undefined);
  };
  /** Every thread runs again, the page's and each worker's; one that never paused has nothing to resume. */
  const resumeAll = async () => {
    await cdp.send("Debugger.resume").catch(() => undefined);
    await toWorkers("Debugger.resume");
    await cdp.send("Debugger.disable");
    await toWorkers("Debugger.disable");
  };
  await cdp.send("Debugger.enable");
  await toWorkers("Debugger.enable");
  await toWorkers("Debugger.pause");
  await cdp.send("Debugger.pause");
  await sleep(ms);
  await resumeAll();
  await cdp.send("Target.setAutoAttach", { autoAttach: false, waitForDebuggerOnStart: false });
  cdp.off("Target.attachedToTarget", attached);
  // A thread asked to pause while idle may stop at its next statement after the resume above: if the page
  // does not answer, every thread is resumed once more before it is shown.
  const shown = page.evaluate(visibility("visible"));
  const answered = await Promise.race([shown.then(() => true), sleep(60_000).then(() => false)]);
  if (answered) return;
  console.log("the tab did not answer 60 s after it was thawed: resuming its threads again");
  await cdp.send("Debugger.enable");
  await toWorkers("Debugger.enable");
  await resumeAll();
  await shown;
};

/** Rolls that pick, in turn: a drop, latency, a reload, a reload mid-payment, a hidden frozen tab, an LSP restart. */
const FIRST_ROLLS = [0.05, 0.2, 0.3, 0.37, 0.42, 0.13];

type Ended = { ok: true } | { ok: false; why: string };

/** Back to home by the app's own links, closing what is open. */
const home = async (page: Page) => {
  const dialog = page.getByRole("dialog");
  if (await dialog.isVisible()) {
    const link = dialog.getByRole("link", { name: "Home" });
    if (await link.isVisible()) await link.click();
    else await dialog.getByRole("button", { name: "Close" }).click();
  }
  if (new URL(page.url()).pathname !== "/") await page.getByRole("link", { name: "Home" }).first().click();
  await expect(page).toHaveURL(/\/$/);
};

/** Confirms on Send (already filled) and answers how the payment ended, as the screen says it. */
const confirmAndWait = async (page: Page): Promise<Ended> => {
  await page.getByRole("button", { name: "Confirm send" }).click();
  const sent = page.getByRole("dialog", { name: "Sent" });
  const failed = page.getByRole("dialog", { name: "Payment failed" });
  const pending = page.getByRole("dialog", { name: "Payment pending" });
  const again = page.getByRole("dialog", { name: "Pay again?" });
  const alert = page.locator("main [role=alert]");
  await expect(sent.or(failed).or(pending).or(again).or(alert).first()).toBeVisible({ timeout: 120_000 });
  if (await again.isVisible()) {
    await again.getByRole("button", { name: "Yes, send it again" }).click();
    await expect(sent.or(failed).or(pending).or(alert).first()).toBeVisible({ timeout: 120_000 });
  }
  if (await sent.isVisible()) return { ok: true };
  if (await pending.isVisible()) return { ok: false, why: "Payment pending" };
  const text = (await failed.or(alert).first().innerText()).replace(/\s+/g, " ").trim();
  return { ok: false, why: text.replace(/\d[\d,]*/g, "N") };
};

/** Opens Send from home and fills `bolt11`. */
const fillSend = async (page: Page, bolt11: string) => {
  await page.getByRole("link", { name: "Send" }).first().click();
  await page.getByLabel("Address, invoice, lightning address or LNURL").fill(bolt11);
  await expect(page.getByTestId("send-request")).toBeVisible();
};

export const runChromiumSoak = async (
  page: Page,
  opts: ChromiumSoakOptions,
  nodeId: string,
): Promise<ChromiumSoakReport> => {
  const { esplora, scope, log } = opts;
  const rnd = seeded(opts.seed);
  const cdp = await page.context().newCDPSession(page);
  const report = {
    attempted: 0,
    firstTime: 0,
    onRetry: 0,
    refusals: {} as Record<string, number>,
    payerDown: {} as Record<string, number>,
    reconnectMs: [] as number[],
    reloadMs: [] as number[],
    shownMs: [] as number[],
    chaos: [] as string[],
  };
  const chaos = (line: string) => {
    report.chaos.push(line);
    log(`chaos: ${line}`);
  };
  const waited = (why: string) => {
    report.payerDown[why] = (report.payerDown[why] ?? 0) + 1;
  };
  const refused = (why: string) => {
    report.refusals[why] = (report.refusals[why] ?? 0) + 1;
    log(`  refused: ${why}`);
  };
  const mine = async () =>
    (
      (await json(`${esplora}/ln/channels`)) as { peer: string; inboundSats: string; outboundSats: string }[]
    ).filter((c) => c.peer === nodeId);
  let channelsSeen = (await mine()).length;

  /** Pays `bolt11` from Send until it is paid; `midway` reloads the page that long after confirming. */
  const send = async (bolt11: string, midway: number | null): Promise<number> => {
    for (let tries = 0; ; tries++) {
      if (tries > 15) throw new Error("soak: a payment never went");
      await fillSend(page, bolt11);
      if (tries === 0 && midway !== null) {
        await page.getByRole("button", { name: "Confirm send" }).click();
        await sleep(midway);
        chaos(`reload ${midway} ms into the payment`);
        await page.reload();
        // The person pays the same invoice again at once: it goes, or the wallet says it was paid.
        continue;
      }
      const ended = await confirmAndWait(page);
      await home(page);
      if (ended.ok) return tries;
      refused(ended.why);
      if (/already (been )?paid|paid twice/i.test(ended.why)) return tries;
      await sleep(1_000);
    }
  };

  /** Receives `sats` on Receive (lightning only) from the world's node; answers the tries it took. */
  const receive = async (sats: number): Promise<number> => {
    await page.getByRole("link", { name: "Receive" }).first().click();
    await page.getByLabel("Amount (sats, optional)").fill(String(sats));
    await page.getByRole("radio", { name: "Lightning only" }).check();
    await page.getByRole("button", { name: "Show address" }).click();
    const invoice = page.getByTestId("receive-invoice");
    await expect(invoice).toBeVisible({ timeout: 120_000 });
    const bolt11 = (await invoice.getAttribute("title")) ?? "";
    let tries = 0;
    for (; ; tries++) {
      if (tries > 30) throw new Error("soak: a payment to the wallet never went");
      const paid = await postJson(esplora, "/ln/pay", { bolt11 }).catch((e: unknown) => ({
        status: "failed",
        reason: e instanceof Error ? e.message.split("\n")[0] : String(e),
      }));
      if (paid.status === "succeeded") break;
      const why = String(paid.reason ?? paid.status).replace(/\d[\d,]*/g, "N");
      // The world's payer is the LSP's node: while the chaos restarts it, it answers that it is stopped. That
      // is the payer waiting for its own node, not the wallet refusing: counted apart.
      if (/lightning node is stopped/.test(why)) waited("the world's payer restarting (its node stopped)");
      else refused(`to the wallet: ${why}`);
      await sleep(1_000);
    }
    await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 120_000 });
    await page.getByRole("link", { name: "Home" }).last().click();
    return tries;
  };

  /** Line dropped → the channels page shows every channel online again. */
  const dropLine = async () => {
    await page.getByRole("link", { name: "Settings" }).first().click();
    await page.getByRole("link", { name: "Lightning channels" }).click();
    const allOnline = () =>
      page.waitForFunction(
        () =>
          /Online \(\d+\)/.test(document.body.innerText) && !/Connecting… \(/.test(document.body.innerText),
        null,
        { polling: "raf", timeout: 120_000 },
      );
    await allOnline();
    await postJson(esplora, "/chaos", { scope, drop: true });
    const t0 = Date.now();
    await page
      .waitForFunction(() => /Connecting… \(/.test(document.body.innerText), null, {
        polling: "raf",
        timeout: 3_000,
      })
      .catch(() => undefined);
    await allOnline();
    report.reconnectMs.push(Date.now() - t0);
    await page.getByRole("link", { name: "Home" }).first().click();
  };

  for (let i = 0; i < opts.payments; i++) {
    let atOnce: { since: number; into: number[] } | null = null;
    let midway: number | null = null;
    let lspBack = false;
    // The payee's invoice is in hand before any chaos: a stopped LSP makes none.
    const kindRoll = rnd();
    const sats = 1_000 + Math.floor(rnd() * 19_000);
    const kind =
      i === 0
        ? "jit"
        : i === 1
          ? opts.network
            ? "split"
            : "first-send"
          : kindRoll < 0.42
            ? "send"
            : kindRoll < 0.55 && opts.network
              ? "four-hops"
              : "receive";
    const invoice =
      kind === "send" || kind === "first-send"
        ? await postJson(esplora, "/ln/invoice", {
            amount_sats: kind === "first-send" ? 100_000 : sats,
            description: `soak ${i}`,
          })
        : kind === "four-hops" || kind === "split"
          ? await postJson(esplora, "/net/invoice", {
              node: "payee",
              amount_sats: kind === "split" ? 700_000 : 1_000 + (sats % 2_000),
            })
          : null;

    // Payments 2-7 meet each kind of chaos once, in turn; the rest as the seed rolls.
    const roll = i < 2 ? 1 : i < 8 ? FIRST_ROLLS[i - 2]! : rnd();
    if (roll < 0.1) {
      chaos(`#${i} drop the line`);
      await dropLine();
    } else if (roll < 0.16) {
      const seconds = 3 + Math.floor(rnd() * 10);
      chaos(`#${i} restart the LSP (down ${seconds} s)`);
      await postJson(esplora, "/ln/stop", { seconds });
      lspBack = true;
    } else if (roll < 0.24) {
      const ms = rnd() < 0.3 ? 0 : 50 + Math.floor(rnd() * 750);
      chaos(`#${i} latency ${ms} ms`);
      await postJson(esplora, "/chaos", { scope, latency_ms: ms });
    } else if (roll < 0.34) {
      chaos(`#${i} reload`);
      await page.reload();
      atOnce = { since: Date.now(), into: report.reloadMs };
    } else if (roll < 0.4) {
      // A reload mid-payment: on a payment out (a payment in is the world's to make).
      if (invoice) midway = Math.floor(rnd() * 1_500);
    } else if (roll < 0.45) {
      const ms = 3_000 + Math.floor(rnd() * 27_000);
      chaos(`#${i} hide and freeze the tab ${ms} ms`);
      await hideAndFreeze(page, cdp, ms);
      atOnce = { since: Date.now(), into: report.shownMs };
    }

    log(`#${i} ${kind} ${kind === "receive" || kind === "jit" ? (kind === "jit" ? 50_000 : sats) : ""}`);
    report.attempted++;
    const tries =
      kind === "jit"
        ? await receive(50_000)
        : kind === "receive"
          ? await receive(sats)
          : await send((invoice as { bolt11: string }).bolt11, midway);
    if (atOnce) atOnce.into.push(Date.now() - atOnce.since);
    if (tries === 0) report.firstTime++;
    else report.onRetry++;
    if (lspBack) await postJson(esplora, "/ln/start", {}).catch(() => undefined);
    channelsSeen = Math.max(channelsSeen, (await mine()).length);
  }
  await postJson(esplora, "/chaos", { scope, latency_ms: 0 });

  // Settled on both sides: the wallet's side of its channels is what the LSP's node says is the wallet's, to
  // the sat (home's balance less the reserves: what the wallet can send, which is what the LSP can
  // receive), and what the wallet can receive is what the LSP can send.
  const total = (label: string) =>
    page
      .locator("dt", { hasText: new RegExp(`^${label}$`) })
      .locator("xpath=following-sibling::dd[1]")
      .innerText()
      .then((t) => BigInt(t.replace(/[^\d]/g, "")));
  const views = async () => {
    await page.getByRole("link", { name: "Settings" }).first().click();
    await page.getByRole("link", { name: "Lightning channels" }).click();
    const reserve = await total("Reserve");
    const canReceive = await total("Can receive");
    await page.getByRole("link", { name: "Home" }).first().click();
    const balance = BigInt((await page.getByTestId("lightning-balance").innerText()).replace(/[^\d]/g, ""));
    const lsp = await mine();
    return {
      walletSats: balance - reserve,
      lspSats: lsp.reduce((s, c) => s + BigInt(c.inboundSats), 0n),
      walletInbound: canReceive,
      lspOutbound: lsp.reduce((s, c) => s + BigInt(c.outboundSats), 0n),
    };
  };
  let seen = await views();
  for (const end = Date.now() + 60_000; Date.now() < end; await sleep(1_000)) {
    seen = await views();
    if (seen.walletSats === seen.lspSats && seen.walletInbound === seen.lspOutbound) break;
  }
  const { walletSats, lspSats, walletInbound, lspOutbound } = seen;
  return {
    ...report,
    walletSats,
    lspSats,
    walletInbound,
    lspOutbound,
    channelsSeen,
    channelsLeft: (await mine()).length,
  };
};
