import { LOAD_STAGES, type LoadStage } from "../../commands/protocol";
import { LIGHTNING_STAGES, type LightningStage, type LiveState } from "../../projections/live";

/** The bar on home counts the wallet's boot stages (0 to 5), then the lightning node's as it starts. */
export const HOME_PROGRESS_MAX = LOAD_STAGES.length - 1 + LIGHTNING_STAGES.length;

export interface HomeProgress {
  readonly value: number;
  readonly max: number;
  /** The catalogue key of the step under way, for the bar's text. */
  readonly key: `boot.stage.${LoadStage}` | `home.lightning_stage.${LightningStage}`;
}

/**
 * Where the loading bar on home stands, or null once there is nothing left to wait for: the wallet
 * booted and its lightning node is running, failed, or is kept off (safe mode, stopped). Home and the
 * on-chain wallet never wait for the node; the bar only tells how far it got.
 */
export const homeProgress = (
  stage: LoadStage,
  live: Pick<LiveState, "lightning" | "lightning_stage"> | undefined,
): HomeProgress | null => {
  if (stage !== "done")
    return { value: LOAD_STAGES.indexOf(stage), max: HOME_PROGRESS_MAX, key: `boot.stage.${stage}` };
  if (live?.lightning !== "starting") return null;
  const node = live.lightning_stage ?? "loading";
  return {
    value: LOAD_STAGES.length - 1 + LIGHTNING_STAGES.indexOf(node),
    max: HOME_PROGRESS_MAX,
    key: `home.lightning_stage.${node}`,
  };
};
