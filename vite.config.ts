import { readFileSync } from "node:fs";
import react from "@vitejs/plugin-react";
import { createServer, defineConfig, type Plugin } from "vite";
import { foldVersion } from "./scripts/fold-version.ts";
import { serviceWorkerSource } from "./src/sw/source.ts";

const version = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"))
  .version as string;

/**
 * Emits /sw.js with the list of this build's files, so the app shell opens offline after one visit. Left
 * out, so a first visit does not download them for nothing: the Fedimint client (8 MB of wasm), which only a
 * wallet that joins a federation needs (and a federation needs the network anyway), and the QR reader's
 * wasm (1 MB), which comes when the owner first opens the scanner.
 */
const NOT_IN_SHELL = /fedimint_client_wasm|zxing_reader/;
const serviceWorker = (): Plugin => ({
  name: "wallet-service-worker",
  apply: "build",
  generateBundle(_options, bundle) {
    const files = Object.keys(bundle).filter((f) => !f.endsWith(".map") && !NOT_IN_SHELL.test(f));
    const shell = ["/", ...files.map((f) => `/${f}`), "/icon.svg", "/manifest.webmanifest"];
    const buildId = `${version}-${Date.now().toString(36)}`;
    this.emitFile({ type: "asset", fileName: "sw.js", source: serviceWorkerSource(buildId, shell) });
  },
});

const define = {
  __APP_VERSION__: JSON.stringify(version),
  __FOLD_VERSION__: JSON.stringify(foldVersion(import.meta.dirname)),
};

/**
 * `virtual:welcome-screens`: the welcome screen in every language, drawn by the app's own components when
 * the app is built, so a newcomer's page shows it before the app's code has arrived (`src/main.tsx`).
 */
const welcomeScreens = (): Plugin => {
  const id = "virtual:welcome-screens";
  return {
    name: "welcome-screens",
    resolveId: { filter: { id: new RegExp(`^${id}$`) }, handler: () => `\0${id}` },
    load: {
      filter: { id: new RegExp(`^\0${id}$`) },
      async handler() {
        const server = await createServer({
          configFile: false,
          root: import.meta.dirname,
          logLevel: "error",
          appType: "custom",
          server: { middlewareMode: true, hmr: false, ws: false },
          optimizeDeps: { noDiscovery: true, entries: [] },
          plugins: [react()],
          define,
        });
        try {
          const { renderWelcomes } = await server.ssrLoadModule("/src/welcome/prerender.tsx");
          return `export default ${JSON.stringify(await renderWelcomes())};`;
        } finally {
          await server.close();
        }
      },
    },
  };
};

/**
 * What the screens share (React, the router, the message formatter, the icons' base, the app's own ui kit)
 * goes in one file, not a score of small ones each its own request. What the first script needs stays
 * with it, and the QR drawing and payment-request parsers (with their curve and script libraries) stay out:
 * only screens that show a code or read a request load them.
 */
const SHARED_UI =
  /node_modules[\\/](react|react-dom|scheduler|wouter|regexparam|use-sync-external-store|@formatjs|intl-messageformat|lucide-react)[\\/]|[\\/]src[\\/](ui|i18n)[\\/]/;
const NOT_SHARED = /[\\/]src[\\/]ui[\\/](incoming|useIncoming|Qr)\.tsx?$/;
const codeSplitting = {
  groups: [
    { name: "index", tags: ["$initial" as const], priority: 2 },
    {
      name: "kit",
      test: (id: string) => SHARED_UI.test(id) && !NOT_SHARED.test(id),
      minShareCount: 2,
      priority: 1,
    },
  ],
};

export default defineConfig({
  plugins: [react(), serviceWorker(), welcomeScreens()],
  define,
  worker: { format: "es" },
  build: { target: "es2022", sourcemap: true, rolldownOptions: { output: { codeSplitting } } },
  optimizeDeps: { entries: ["index.html", "src/worker.ts"], exclude: ["@automerge/automerge", "zxing-wasm"] },
  server: { port: Number(process.env.PORT ?? 5173), strictPort: true, host: "127.0.0.1" },
  preview: { port: Number(process.env.PORT ?? 5173), strictPort: true, host: "127.0.0.1" },
});
