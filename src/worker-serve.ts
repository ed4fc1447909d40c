/// <reference lib="webworker" />
import type { CommandAnswer } from "./commands/attached";
import type { Command } from "./commands/command";
import type { WalletHost } from "./commands/host/host";
import type { FromWorker, ToWorker } from "./commands/protocol";
import type { WalletConfig } from "./config";

/**
 * What the wallet's worker and emergency mode's worker do alike: a command that arrives before the host is
 * open waits for it and is answered in order; a start that throws is shown as the boot error; a stop ends
 * with `stopped` once the host has stopped. It imports no engine, so emergency mode's script stays free of them.
 */
export interface WorkerParts {
  /** Opens the host on `config` (posting its own load stages). */
  readonly start: (config: WalletConfig) => Promise<WalletHost>;
  /** After a command's answer is ready, before it is posted (pending views go out first). */
  readonly beforeAnswer?: () => void;
  /** After a command's answer is posted. */
  readonly answered?: (command: Command, answer: CommandAnswer) => void;
  /** When the page asks the worker to stop, before the host stops. */
  readonly stopping?: () => void;
  /** Any other message from the page (the wallet's worker is told when home is on screen). */
  readonly other?: (m: ToWorker) => void;
}

export const post = (m: FromWorker) => postMessage(m);

export const serveWorker = (parts: WorkerParts): void => {
  let host: WalletHost | null = null;
  const early: Extract<ToWorker, { kind: "command" }>[] = [];

  const answer = (m: Extract<ToWorker, { kind: "command" }>) => {
    if (!host) {
      early.push(m);
      return;
    }
    void host.run(m.command).then((a) => {
      parts.beforeAnswer?.();
      post({ kind: "result", id: m.id, ...a });
      parts.answered?.(m.command, a);
    });
  };

  const start = async (config: WalletConfig) => {
    try {
      host = await parts.start(config);
      for (const m of early.splice(0)) answer(m);
    } catch (e) {
      post({
        kind: "boot_error",
        message: `Failed to initialize Mutiny: ${e instanceof Error ? e.message : String(e)}`,
      });
    }
  };

  self.onmessage = (ev: MessageEvent<ToWorker>) => {
    const m = ev.data;
    if (m.kind === "start") void start(m.config);
    else if (m.kind === "command") answer(m);
    else if (m.kind === "stop") {
      parts.stopping?.();
      void (host?.stop() ?? Promise.resolve()).finally(() => post({ kind: "stopped" }));
    } else parts.other?.(m);
  };
};
