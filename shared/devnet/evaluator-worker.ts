/**
 * Worker-thread side of the evaluator pool (evaluator-pool.ts): runs `evaluateScriptsHere` (or, for a transaction the
 * ledger's machine refused, `describeLedgerFailure`) and posts the budgets, or the DevnetError's code, message and data.
 */
import { parentPort } from "node:worker_threads";
import { DevnetError } from "./errors";
import { describeLedgerFailure, evaluateScriptsHere, type LedgerEvaluationFailure, type ResolvedUtxos } from "./evaluator";

interface Job {
  id: number;
  txBytes: Uint8Array;
  resolved: ResolvedUtxos;
  systemStartMs: number;
  /** When given: the ledger's machine refused the transaction, and the answer is that failure described. */
  ledgerFailure?: LedgerEvaluationFailure;
}

parentPort?.on("message", (job: Job) => {
  try {
    const ok = job.ledgerFailure
      ? describeLedgerFailure(job.txBytes, job.resolved, job.systemStartMs, job.ledgerFailure)
      : evaluateScriptsHere(job.txBytes, job.resolved, job.systemStartMs);
    parentPort!.postMessage({ id: job.id, ok });
  } catch (err) {
    const e =
      err instanceof DevnetError
        ? { code: err.code, message: err.message, data: err.payload }
        : { code: -32603, message: String(err), data: undefined };
    parentPort!.postMessage({ id: job.id, error: e });
  }
});
