/**
 * Figures a bench section reports beside what it prints, for the run's summary table: each with the target
 * the wallet aims at (an upper bound unless `atLeast`), so one run says which are met and which are missed.
 * Nothing fails on them: they are figures, not tests.
 */
export type Figure = {
  section: string;
  name: string;
  value: number;
  unit: string;
  target?: number;
  atLeast?: boolean;
};

const figures: Figure[] = [];
let section = "";

/** The section whose figures come next (set by the runner). */
export const inSection = (name: string) => {
  section = name;
};

/** Records one figure; `target` is the most it may be (the least with `atLeast`). */
export const figure = (name: string, value: number, unit: string, target?: number, atLeast = false) => {
  figures.push({ section, name, value, unit, target, atLeast });
};

export const recorded = (): readonly Figure[] => figures;

const shown = (v: number, unit: string) =>
  `${v >= 100 ? Math.round(v).toLocaleString("en-US") : v.toFixed(v >= 10 ? 1 : 2)} ${unit}`;

/** The verdict of one figure: met, missed, or (no target) shown only. */
export const verdict = (f: Figure): "met" | "missed" | "" =>
  f.target === undefined ? "" : (f.atLeast ? f.value >= f.target : f.value <= f.target) ? "met" : "missed";

/** The summary table (markdown) of every recorded figure, then each section's outcome. */
export const summaryTable = (sections: readonly { name: string; outcome: string; ms: number }[]): string => {
  const rows = [
    ...(figures.length === 0 ? [] : ["| section | figure | value | target | |", "|---|---|---|---|---|"]),
    ...figures.map(
      (f) =>
        `| ${f.section} | ${f.name} | ${shown(f.value, f.unit)} | ${
          f.target === undefined ? "" : `${f.atLeast ? "≥" : "≤"} ${shown(f.target, f.unit)}`
        } | ${verdict(f)} |`,
    ),
    ...(figures.length === 0 ? [] : [""]),
    "| section | outcome | time |",
    "|---|---|---|",
    ...sections.map((s) => `| ${s.name} | ${s.outcome} | ${(s.ms / 1000).toFixed(1)} s |`),
  ];
  return rows.join("\n");
};
