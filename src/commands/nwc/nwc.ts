/**
 * Wallet-connect connections (spec 2 §3 connections): created, edited and deleted by the owner as changes
 * of the Automerge document, and created for an app that asked (an authorization request). Approving and
 * denying held payments, and the connection URI, are in `owner.ts` (they need the running service).
 */
import { Effect } from "effect";
import { type BudgetPeriod, makeChange, type NwcProfileRecord } from "../../crdt/doc";
import { parseWalletAuth } from "../../engine/nwc/protocol";
import { newEvent } from "../../events/make";
import { crdtProjection } from "../../projections/crdt";
import { nwcIndexesOf, nwcProfileOf, nwcProfilesOf } from "../../projections/nwc";
import { MAX_MONEY_SATS } from "../../money";
import { InvalidInput, type WalletError } from "../../errors";
import type { CommandSpecs } from "../command";
import { type Handler, type HandlerContext, outcome } from "../context";

/** Connections the owner makes get indexes from 1000 (they show a QR); 0 is the subscription's. */
export const FIRST_OWNER_INDEX = 1000;

export const nameRequired = () =>
  new InvalidInput({ message: "A name is required.", key: "settings.connections.error_name" });
export const budgetZero = () =>
  new InvalidInput({
    message: "The budget can't be 0 when payments are approved automatically.",
    key: "error_budget_zero",
  });
export const noProfile = () =>
  new InvalidInput({ message: "No profile index", key: "errors.no_profile_index" });
export const lostNwa = () => new InvalidInput({ message: "We lost the NWA string", key: "errors.lost_nwa" });

const isPeriod = (p: number): p is BudgetPeriod => p === 0 || p === 1 || p === 2 || p === 3;

/** The connection form's rules (spec 2 §5): name required; auto-approve needs a budget above 0. */
export const checkConnectionForm = (form: {
  name: string;
  budgetSats: bigint;
  period: number;
  requireApproval: boolean;
}): WalletError | null => {
  if (form.name.trim() === "") return nameRequired();
  if (form.budgetSats < 0n || form.budgetSats > MAX_MONEY_SATS)
    return new InvalidInput({ message: "Satoshi amount is invalid", key: "errors.invalid_amount" });
  if (!isPeriod(form.period))
    return new InvalidInput({ message: "Unknown budget period.", key: "settings.connections.error_period" });
  if (!form.requireApproval && form.budgetSats === 0n) return budgetZero();
  return null;
};

const docOf = (ctx: HandlerContext) => crdtProjection.view(ctx.states.crdt);

const nextIndex = (ctx: HandlerContext): number =>
  Math.max(FIRST_OWNER_INDEX - 1, ...nwcIndexesOf(docOf(ctx))) + 1;

const saved = (ctx: HandlerContext, edit: Parameters<typeof makeChange>[2]) => {
  const change = makeChange(docOf(ctx), ctx.stamp.device, edit);
  return change ? [newEvent("crdt.change", { change })] : [];
};

/** Saves a new connection at `index`; the answer is its index. */
const savedNew = (ctx: HandlerContext, index: number, record: NwcProfileRecord) =>
  Effect.succeed(
    outcome(
      { index },
      saved(ctx, (d) => {
        d.nwc[String(index)] = record;
      }),
    ),
  );

/** Saves `edit` of the connection at `index` (nothing when it is gone); the answer is null. */
const savedEdit = (ctx: HandlerContext, index: number, edit: (p: NwcProfileRecord) => void) =>
  Effect.succeed(
    outcome(
      null,
      saved(ctx, (d) => {
        const p = d.nwc[String(index)];
        if (p) edit(p);
      }),
    ),
  );

const profileRecord = (
  index: number,
  f: { name: string; budgetSats: bigint; period: BudgetPeriod; requireApproval: boolean },
  extra: Partial<NwcProfileRecord>,
  now: number,
): NwcProfileRecord => ({
  index,
  name: f.name.trim(),
  label: null,
  tag: "General",
  require_approval: f.requireApproval,
  budget_sats: f.budgetSats.toString(),
  budget_period: f.period,
  budget_fixed: false,
  enabled: true,
  app_pubkey: null,
  created_at: now,
  ...extra,
});

export const createNwcProfile: Handler<"CreateNwcProfile"> = (cmd, ctx) => {
  const problem = checkConnectionForm(cmd);
  if (problem) return Effect.fail(problem);
  const index = nextIndex(ctx);
  const record = profileRecord(index, { ...cmd, period: cmd.period as BudgetPeriod }, {}, ctx.stamp.now());
  return savedNew(ctx, index, record);
};

export const editNwcProfile: Handler<"EditNwcProfile"> = (cmd, ctx) => {
  const current = nwcProfileOf(docOf(ctx), cmd.index);
  if (!current) return Effect.fail(noProfile());
  // The name is locked when editing; a fixed budget (an app's or the subscription's) stays as it was.
  const budgetSats = current.budget_fixed ? BigInt(current.budget_sats) : cmd.budgetSats;
  const period = current.budget_fixed ? current.budget_period : cmd.period;
  const problem = checkConnectionForm({
    name: current.name,
    budgetSats,
    period,
    requireApproval: cmd.requireApproval,
  });
  if (problem) return Effect.fail(problem);
  return savedEdit(ctx, cmd.index, (p) => {
    p.require_approval = cmd.requireApproval;
    p.budget_sats = budgetSats.toString();
    p.budget_period = period as BudgetPeriod;
    p.enabled = cmd.enabled;
  });
};

export const deleteNwcProfile: Handler<"DeleteNwcProfile"> = (cmd, ctx) => {
  if (!nwcProfileOf(docOf(ctx), cmd.index)) return Effect.fail(noProfile());
  return savedEdit(ctx, cmd.index, (p) => {
    p.deleted = true;
    p.enabled = false;
  });
};

/** What an authorization request asks, for the create-from-request form (its budget may be fixed). */
export const readWalletAuth: Handler<"ReadWalletAuth"> = (cmd) => {
  const req = parseWalletAuth(cmd.nwa);
  if (!req) return Effect.fail(lostNwa());
  return Effect.succeed(
    outcome({
      name: req.name,
      budgetSats: req.budget?.sats ?? null,
      period: req.budget?.period ?? null,
      methods: [...req.methods],
    }),
  );
};

/**
 * Creates the connection an app asked for: the app's own key may use it, with the budget it asked for
 * (fixed) or the owner's. The service then publishes the info event the app waits for.
 */
export const approveWalletAuth: Handler<"ApproveWalletAuth"> = (cmd, ctx) => {
  const req = parseWalletAuth(cmd.nwa);
  if (!req) return Effect.fail(lostNwa());
  const form = {
    name: cmd.name,
    budgetSats: req.budget?.sats ?? cmd.budgetSats,
    period: req.budget?.period ?? cmd.period,
    requireApproval: cmd.requireApproval,
  };
  const problem = checkConnectionForm(form);
  if (problem) return Effect.fail(problem);
  const existing = nwcProfilesOf(docOf(ctx)).find((p) => p.app_pubkey === req.appPubkey);
  if (existing) return Effect.succeed(outcome({ index: existing.index }));
  const index = nextIndex(ctx);
  const record = profileRecord(
    index,
    { ...form, period: form.period as BudgetPeriod },
    { app_pubkey: req.appPubkey, label: req.name, budget_fixed: req.budget !== null },
    ctx.stamp.now(),
  );
  return savedNew(ctx, index, record);
};

export const nwcHandlers = {
  CreateNwcProfile: createNwcProfile,
  EditNwcProfile: editNwcProfile,
  DeleteNwcProfile: deleteNwcProfile,
  ReadWalletAuth: readWalletAuth,
  ApproveWalletAuth: approveWalletAuth,
} satisfies { readonly [K in keyof CommandSpecs]?: Handler<K> };
