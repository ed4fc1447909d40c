/**
 * The layers of ../shared/ARCHITECTURE.md as a rule the test run checks (`npm run deps`), so they survive every
 * new engine:
 *
 *   ground floor   src/errors.ts, src/events (the log, event types)      import nothing above them
 *   projections    pure folds of the log                                  ground floor, amount maths
 *   engine         ports and adapters                                     ground floor, the state types
 *                                                                         of the views its ports read
 *   commands       handlers, the bus, the host                            everything below
 *   screens, ui    the main thread                                        never an engine, never the host
 *
 * src/ui may re-export the engine's pure, I/O-free helpers (the payment-string parser, amount arithmetic and the
 * currency table) so screens can format and route without reaching into an engine.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle hides which module is the lower layer.",
      from: { path: "^src" },
      to: { circular: true },
    },
    {
      name: "ground-floor-stays-down",
      severity: "error",
      comment: "Events and the error catalogue are the ground floor: they import no layer above them.",
      from: { path: "^src/(events/|errors\\.ts)", pathNot: "\\.test\\.tsx?$" },
      to: { path: "^src/(commands|engine|screens|ui|worker|main|boot)" },
    },
    {
      name: "engine-below-commands",
      severity: "error",
      comment: "Engines are ports and adapters: they never reach up into handlers or the main thread.",
      from: { path: "^src/engine/", pathNot: "\\.test\\.tsx?$" },
      to: { path: "^src/(commands|screens|ui)/" },
    },
    {
      name: "projections-are-pure",
      severity: "error",
      comment:
        "Folds import the event types, each other and the pure amount maths; no engine, handler or screen.",
      from: { path: "^src/projections/", pathNot: "\\.test\\.tsx?$" },
      to: { path: "^src/(commands|engine|screens|ui)/", pathNot: "^src/engine/amount/" },
    },
    {
      name: "screens-never-touch-engines",
      severity: "error",
      comment: "Screens dispatch commands and render views; what decides lives in the worker.",
      from: { path: "^src/screens/" },
      to: { path: "^src/engine/" },
    },
    {
      name: "ui-only-pure-engine-helpers",
      severity: "error",
      comment:
        "Shared components may re-export the parser, amount maths and currency table, nothing stateful.",
      from: { path: "^src/ui/" },
      to: { path: "^src/engine/", pathNot: "^src/engine/(parse|amount)/|^src/engine/price/currencies\\.ts$" },
    },
    {
      name: "services-never-import-harness",
      severity: "error",
      comment:
        "What an operator runs lives in services/; the test world (harness/) composes it, never the reverse. Only tests that stand the services beside the world may reach into it.",
      from: { path: "^services/", pathNot: "\\.test\\.tsx?$" },
      to: { path: "^harness/" },
    },
    {
      name: "main-thread-never-hosts",
      severity: "error",
      comment: "The main thread talks to the worker through the bus client, never the host or a handler.",
      from: { path: "^src/(screens|ui)/" },
      to: { path: "^src/commands/(host|features|wallet)" },
    },
    {
      name: "feature-through-its-face",
      severity: "error",
      comment:
        "A feature folder of the worker (src/commands/<feature>/) is reached from outside it only through its index.ts: the host and the other features see its face, never its insides. Tests may reach in.",
      from: { path: "^src/commands/([^/]+)/", pathNot: "\\.(test|testing)\\.tsx?$" },
      to: { path: "^src/commands/[^/]+/", pathNot: ["^src/commands/$1/", "^src/commands/[^/]+/index\\.ts$"] },
    },
    {
      name: "kernel-through-faces",
      severity: "error",
      comment:
        "The worker's shared kernel (src/commands/*.ts: commands, context, engines, the features' list) sees each feature only through its index.ts. The lifecycle port names two of the wallet feature's types (its secrets, its state file's cipher) and nothing at run time: through the face they would make a cycle of types.",
      from: {
        path: "^src/commands/[^/]+\\.tsx?$",
        pathNot: ["\\.(test|testing)\\.tsx?$", "^src/commands/lifecycle-port\\.ts$"],
      },
      to: { path: "^src/commands/(?!host/)[^/]+/", pathNot: "^src/commands/[^/]+/index\\.ts$" },
    },
    {
      name: "features-never-import-the-host",
      severity: "error",
      comment:
        "A feature is called by the host and never reaches into it: what it needs is the handler context.",
      from: { path: "^src/commands/(?!host/)[^/]+/", pathNot: "\\.(test|testing)\\.tsx?$" },
      to: { path: "^src/commands/host/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules" },
    tsPreCompilationDeps: true,
    // TypeScript 7 has no compiler API to parse with: Babel reads the sources (type imports kept).
    babelConfig: { fileName: ".babelrc.deps.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs"] },
  },
};
