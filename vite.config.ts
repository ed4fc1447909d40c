import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [react()],
  worker: { format: "es" },
  build: { target: "es2022", sourcemap: true },
  optimizeDeps: { entries: ["index.html", "src/worker.ts"], exclude: ["@automerge/automerge", "zxing-wasm"] },
  server: { port: Number(process.env.PORT ?? 5173), strictPort: true, host: "127.0.0.1" },
  preview: { port: Number(process.env.PORT ?? 5173), strictPort: true, host: "127.0.0.1" },
});
