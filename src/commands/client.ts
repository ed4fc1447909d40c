import type { Command, CommandTag, CommandOf, ResultOf } from "./command";
import type { WireError } from "../errors";
import type { ClosingRequest, FromWorker, LoadStage, ToWorker } from "./protocol";
import type { AllViews } from "../projections/live";
import type { WalletConfig } from "../config";
import { type FetchFn, globalFetch } from "../engine/http/platform-fetch";

/** A command that failed: its tag, the catalogue text and the i18n key, as the worker sent them. */
export class CommandFailed extends Error {
  readonly _tag: WireError["_tag"];
  readonly key: string | undefined;
  readonly values: Record<string, string> | undefined;
  constructor(e: WireError) {
    super(e.message);
    this.name = e._tag;
    this._tag = e._tag;
    this.key = e.key;
    this.values = e.values;
  }
}

type Listener = () => void;

type WorkerLike = Pick<Worker, "postMessage" | "terminate"> & {
  onmessage: ((ev: MessageEvent<FromWorker>) => void) | null;
};

/**
 * The main thread's side of the bus: sends commands, keeps the latest views the worker pushed, and
 * tells subscribers when they change. Screens read it through `useView`; nothing here polls.
 */
export class WalletClient {
  private next = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: CommandFailed) => void }
  >();
  private readonly listeners = new Set<Listener>();
  views: Partial<AllViews> = {};
  stage: LoadStage = "fresh";
  bootError: string | null = null;

  private worker: WorkerLike | null = null;
  /** Messages sent before the worker exists (the welcome screen is up before the worker starts). */
  private readonly queued: ToWorker[] = [];
  /** What the worker asked to be sent as the page closes (the device lock's release), if anything. */
  private closing: ClosingRequest | null = null;

  constructor(worker?: WorkerLike) {
    if (worker) this.attach(worker);
  }

  /**
   * Swaps a worker that failed to start for another (emergency mode): the old one is ended, and what it
   * showed or reported is forgotten.
   */
  replaceWorker(worker: WorkerLike): void {
    this.worker?.terminate();
    this.worker = null;
    this.views = {};
    this.stage = "fresh";
    this.bootError = null;
    this.attach(worker);
    this.emit();
  }

  /** Gives the client its worker; what was sent before goes to it now, in order. */
  attach(worker: WorkerLike): void {
    this.worker = worker;
    worker.onmessage = (ev) => this.receive(ev.data);
    for (const m of this.queued.splice(0)) worker.postMessage(m);
  }

  /**
   * Views read before the worker has sent any (the last ones it kept, read by the page itself): the
   * screens draw from them until the worker's own arrive, which replace them.
   */
  seed(views: Partial<AllViews>): void {
    if (this.views.wallet) return;
    this.views = { ...views, ...this.views };
    this.emit();
  }

  start(config: WalletConfig): void {
    this.stage = "checking_double_init";
    this.send({ kind: "start", config });
    this.emit();
  }

  dispatch<K extends CommandTag>(command: CommandOf<K>): Promise<ResultOf<K>> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.send({ kind: "command", id, command: command as Command });
    });
  }

  subscribe = (l: Listener): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  /** Tells the worker home is drawn and usable (the network graph's first sync waits for it). */
  homeShown(): void {
    this.send({ kind: "home_shown" });
  }

  /** Tells the worker the browser is back online or the page is shown again (the node redials its peers). */
  wake(): void {
    // Before the worker exists there is no node to wake: nothing is queued for it.
    this.worker?.postMessage({ kind: "wake" } satisfies ToWorker);
  }

  /** Stops the wallet's engines before the page goes away (import, delete, restore). */
  stop(): void {
    this.send({ kind: "stop" });
  }

  /**
   * The page is going away (the tab closed, or left for another site): the worker's last request goes out
   * on its own (`keepalive` outlives the page), so the device lock is given up at once rather than left to
   * run out. Sent once.
   */
  pageClosing(fetchFn: FetchFn = globalFetch): void {
    const r = this.closing;
    this.closing = null;
    if (!r) return;
    // Not the bounded helper: nothing waits for the answer (the page is gone), and its deadline's abort
    // would die with the page, or end the request the browser is to finish on its own.
    void fetchFn(r.url, {
      method: "POST",
      headers: r.headers,
      body: r.body as BodyInit,
      keepalive: true,
    }).catch(() => undefined);
  }

  terminate(): void {
    this.worker?.terminate();
  }

  private send(m: ToWorker) {
    if (this.worker) this.worker.postMessage(m);
    else this.queued.push(m);
  }

  private emit() {
    for (const l of this.listeners) l();
  }

  private receive(m: FromWorker) {
    switch (m.kind) {
      case "stage":
        this.stage = m.stage;
        break;
      case "views":
        this.views = { ...this.views, ...m.views };
        break;
      case "boot_error":
        this.bootError = m.message;
        break;
      case "result": {
        const w = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        if (m.ok) w?.resolve(m.value);
        else w?.reject(new CommandFailed(m.error));
        return;
      }
      case "stopped":
        return;
      case "lock_release":
        this.closing = m.request;
        return;
    }
    this.emit();
  }
}
