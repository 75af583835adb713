/**
 * Worker-thread side of the evaluator pool (evaluator-pool.ts): runs `evaluateLikeTheLedger` and posts the budgets,
 * or the DevnetError's code, message and data.
 */
import { parentPort } from "node:worker_threads";
import { DevnetError } from "./errors";
import { evaluateLikeTheLedger, type ResolvedUtxos } from "./evaluator";

interface Job {
  id: number;
  txBytes: Uint8Array;
  resolved: ResolvedUtxos;
  systemStartMs: number;
}

parentPort?.on("message", (job: Job) => {
  try {
    parentPort!.postMessage({ id: job.id, ok: evaluateLikeTheLedger(job.txBytes, job.resolved, job.systemStartMs) });
  } catch (err) {
    const e =
      err instanceof DevnetError
        ? { code: err.code, message: err.message, data: err.payload }
        : { code: -32603, message: String(err), data: undefined };
    parentPort!.postMessage({ id: job.id, error: e });
  }
});
