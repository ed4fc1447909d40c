/** The owner's wallet-connect connections as commands: the form's rules, editing, deleting, an app's request. */
import { describe, expect, it } from "vitest";
import { WalletDb } from "../../events/db";
import { readEvents } from "../../events/log";
import { deriveViews, foldEvents } from "../../projections";
import { ok, openOfflineHost } from "../offline.testing";

const NWA =
  "nostr+walletauth://b889ff5b1513b641e2a139f661a661364979c5beee91842f8f0ef42ab558e9d4?relay=wss%3A%2F%2Frelay.example&request_methods=pay_invoice&name=Kiosk&max_amount=5000&budget_renewal=monthly";

describe("wallet-connect connections", () => {
  it("keeps the form's rules, locks the name and a fixed budget, and never gives a deleted index again", async () => {
    const db = new WalletDb("nwc-profiles");
    const host = await openOfflineHost(db);
    ok(await host.run({ _tag: "CreateWallet" }));
    const form = { name: "Shop", budgetSats: 10_000n, period: 2, requireApproval: false };
    expect(await host.run({ _tag: "CreateNwcProfile", ...form, name: "" })).toMatchObject({
      ok: false,
      error: { key: "settings.connections.error_name" },
    });
    expect(await host.run({ _tag: "CreateNwcProfile", ...form, budgetSats: 0n })).toMatchObject({
      ok: false,
      error: { key: "error_budget_zero" },
    });
    // Asking for each payment needs no budget.
    const careful = ok<{ index: number }>(
      await host.run({
        _tag: "CreateNwcProfile",
        ...form,
        name: "Careful",
        budgetSats: 0n,
        requireApproval: true,
      }),
    );
    const shop = ok<{ index: number }>(await host.run({ _tag: "CreateNwcProfile", ...form }));
    expect([careful.index, shop.index]).toEqual([1000, 1001]);

    ok(
      await host.run({
        _tag: "EditNwcProfile",
        index: shop.index,
        budgetSats: 20_000n,
        period: 1,
        requireApproval: false,
        enabled: false,
      }),
    );
    expect(host.views().nwc.profiles.find((p) => p.index === shop.index)).toMatchObject({
      name: "Shop",
      budget_amount: 20_000n,
      budget_period: 1,
      enabled: false,
    });
    expect(
      await host.run({
        _tag: "EditNwcProfile",
        index: shop.index,
        budgetSats: 0n,
        period: 1,
        requireApproval: false,
        enabled: true,
      }),
    ).toMatchObject({ ok: false, error: { key: "error_budget_zero" } });
    expect(
      await host.run({
        _tag: "EditNwcProfile",
        index: 7,
        budgetSats: 1n,
        period: 0,
        requireApproval: true,
        enabled: true,
      }),
    ).toMatchObject({ ok: false, error: { message: "No profile index" } });

    // An app's request: its budget is fixed, whatever the form sent, and stays fixed when edited.
    expect(ok(await host.run({ _tag: "ReadWalletAuth", nwa: NWA }))).toMatchObject({
      name: "Kiosk",
      budgetSats: 5_000n,
      period: 2,
    });
    expect(await host.run({ _tag: "ReadWalletAuth", nwa: "nostr+walletauth://nothing" })).toMatchObject({
      ok: false,
      error: { message: "We lost the NWA string" },
    });
    const kiosk = ok<{ index: number }>(
      await host.run({
        _tag: "ApproveWalletAuth",
        name: "Kiosk",
        nwa: NWA,
        budgetSats: 1n,
        period: 0,
        requireApproval: false,
      }),
    );
    ok(
      await host.run({
        _tag: "EditNwcProfile",
        index: kiosk.index,
        budgetSats: 999_999n,
        period: 0,
        requireApproval: false,
        enabled: true,
      }),
    );
    expect(host.views().nwc.profiles.find((p) => p.index === kiosk.index)).toMatchObject({
      budget_amount: 5_000n,
      budget_period: 2,
      budget_fixed: true,
      from_app: true,
    });

    ok(await host.run({ _tag: "DeleteNwcProfile", index: kiosk.index }));
    expect(host.views().nwc.profiles.map((p) => p.index)).toEqual([1000, 1001]);
    expect(await host.run({ _tag: "DeleteNwcProfile", index: kiosk.index })).toMatchObject({
      ok: false,
      error: { message: "No profile index" },
    });
    const next = ok<{ index: number }>(await host.run({ _tag: "CreateNwcProfile", ...form, name: "Next" }));
    expect(next.index).toBe(kiosk.index + 1);

    const { live: _live, ...views } = host.views();
    expect(deriveViews(foldEvents(await readEvents(db)))).toEqual(views);
    await host.stop();
  });
});
