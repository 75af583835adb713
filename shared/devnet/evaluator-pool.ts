/**
 * Runs the UPLC evaluator in worker threads, off the devnet's main thread (which serves every connection, runs the
 * ledger rules on submit and answers evaluateTransaction with the ledger's own machine): the devnet asks it to
 * describe a transaction that machine refused (which validator failed, its traces). The evaluator's wasm memory leak
 * is handled inside each worker, which renews its evaluator instance every `EVALUATIONS_PER_INSTANCE` calls
 * (evaluator.ts): a worker therefore lives as long as the pool unless `recycleAfter` asks for it to be replaced after
 * that many evaluations.
 */
import { Worker } from "node:worker_threads";
import { join } from "node:path";
import { DevnetError } from "./errors";
import type { EvaluationBudget, LedgerEvaluationFailure, ResolvedUtxos } from "./evaluator";

type Reply = { id: number; ok: EvaluationBudget[] } | { id: number; error: { code: number; message: string; data: unknown } };

/** One worker and the jobs it still owes an answer for. */
class EvaluatorWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(b: EvaluationBudget[]): void; reject(e: unknown): void; done: Promise<unknown> }>();
  private nextId = 1;
  calls = 0;

  /** jobs sent and not answered yet */
  get owed(): number {
    return this.pending.size;
  }

  constructor() {
    // Under tsx (tests, `npm start`) the worker file is TypeScript and needs the same loader; compiled, it is JS.
    const ts = __filename.endsWith(".ts");
    this.worker = new Worker(join(__dirname, `evaluator-worker${ts ? ".ts" : ".js"}`), { execArgv: ts ? ["--require", "tsx/cjs"] : [] });
    this.worker.unref();
    this.worker.on("message", (reply: Reply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if ("ok" in reply) p.resolve(reply.ok);
      else p.reject(new DevnetError(reply.error.code, reply.error.message, reply.error.data));
    });
    this.worker.on("error", (err) => {
      for (const p of this.pending.values()) p.reject(new DevnetError(-32603, `the evaluator worker failed: ${String(err)}`, undefined));
      this.pending.clear();
    });
  }

  run(
    txBytes: Uint8Array,
    resolved: ResolvedUtxos,
    systemStartMs: number,
    ledgerFailure?: LedgerEvaluationFailure,
  ): Promise<EvaluationBudget[]> {
    const id = this.nextId++;
    this.calls += 1;
    let settle!: { resolve(b: EvaluationBudget[]): void; reject(e: unknown): void };
    const result = new Promise<EvaluationBudget[]>((resolve, reject) => (settle = { resolve, reject }));
    this.pending.set(id, { ...settle, done: result.catch(() => undefined) });
    this.worker.postMessage({ id, txBytes, resolved, systemStartMs, ...(ledgerFailure ? { ledgerFailure } : {}) });
    return result;
  }

  /** Answers what it owes, then goes away (and its wasm memory with it). */
  async retire(): Promise<void> {
    await Promise.all([...this.pending.values()].map((p) => p.done));
    await this.worker.terminate();
  }
}

/**
 * Evaluations per worker by default: unlimited. Workers used to be replaced every 20 evaluations to drop the
 * evaluator's leaked wasm memory, and each replacement cost 200–300 CPU ms (module loader, CSL, warm-up) — about
 * 15 CPU ms per evaluation; the instance renewal inside the worker now drops that memory for a few ms.
 */
const DEFAULT_RECYCLE_AFTER = Number.POSITIVE_INFINITY;

/**
 * `size` worker slots (default 2: the evaluations of concurrent builds no longer queue behind one thread); each job
 * goes to the slot owing the fewest answers (the first on a tie, so one caller at a time uses one worker and a
 * second starts only when jobs overlap), and a worker that has run `recycleAfter` jobs is replaced.
 */
export class EvaluatorPool {
  private readonly slots: (EvaluatorWorker | undefined)[];
  /** workers started so far (each on the first call its slot gets, each successor when its predecessor retires) */
  workersStarted = 0;

  constructor(
    private readonly recycleAfter = DEFAULT_RECYCLE_AFTER,
    size = 2,
  ) {
    this.slots = Array.from({ length: Math.max(1, size) }, () => undefined);
  }

  /**
   * The UPLC evaluator's budgets; with `ledgerFailure`, the description of that failure (rejects with 3010).
   * @throws DevnetError 3010 when a script fails.
   */
  evaluate(
    txBytes: Uint8Array,
    resolved: ResolvedUtxos,
    systemStartMs: number,
    ledgerFailure?: LedgerEvaluationFailure,
  ): Promise<EvaluationBudget[]> {
    let slot = 0;
    for (let i = 1; i < this.slots.length; i++) if ((this.slots[i]?.owed ?? 0) < (this.slots[slot]?.owed ?? 0)) slot = i;
    const worker = (this.slots[slot] ??= this.start());
    const result = worker.run(txBytes, resolved, systemStartMs, ledgerFailure);
    if (worker.calls >= this.recycleAfter) {
      // The successor starts now, while the caller works on this answer, so its start-up is off the next call's path.
      this.slots[slot] = this.start();
      void worker.retire();
    }
    return result;
  }

  private start(): EvaluatorWorker {
    this.workersStarted += 1;
    return new EvaluatorWorker();
  }

  async close(): Promise<void> {
    const workers = this.slots.filter((w): w is EvaluatorWorker => w !== undefined);
    this.slots.fill(undefined);
    await Promise.all(workers.map((w) => w.retire()));
  }
}
