/**
 * Issuing from the browser (docs/web-pages.md#issuing): build through the API — preparing the wallet's collateral
 * first when the answer is COLLATERAL_REQUIRED — sign in the CIP-30 wallet, submit, and wait for the confirmation,
 * which the service's event stream announces (`GET /api/v1/events`); the certificate transaction is then followed
 * block by block (its depth, a rollback) while the page is open. Every step is reported to `progress`, so the page
 * shows where it is.
 */
import type { EventData } from "../shared/events/event-types";
import { isConfirmed, postBuild, submit, type BuildResponse } from "./api";
import { walletErrorMessage, type Cip30Api } from "./cip30";
import { followEvents } from "./event-source";
import { refusalSaid, SaidError, WORDS, type Said } from "./issue-words";

export interface CertificateRequest {
  hash: string;
  algorithm: string;
  metadata?: string;
}

export type StepState = "active" | "done" | "failed";

export interface Progress {
  /** Starts or updates a step (`id` stays the same for one step); `data` sets the step's `data-*` attributes. */
  step(id: string, text: Said, state: StepState, data?: Readonly<Record<string, string>>): void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const CONFIRM_TIMEOUT_MS = 300_000;
const PENDING_RETRIES = 20;
/** How often the page asks `/transaction/confirm` when it cannot follow the event stream. */
const POLL_MS = 1000;

/** Builds until the answer is not PENDING_TRANSACTION (the wallet's previous transaction is still in flight). */
async function buildSettled(path: string, request: unknown, progress: Progress, id: string): Promise<BuildResponse> {
  for (let attempt = 0; ; attempt++) {
    const res = await postBuild(path, request);
    if (res.status.code !== "PENDING_TRANSACTION" || attempt >= PENDING_RETRIES) return res;
    progress.step(id, WORDS.waitingForPrevious(attempt + 1, PENDING_RETRIES), "active");
    await sleep(3000);
  }
}

/** What the confirmation step of a transaction says. */
class ConfirmStep {
  private readonly id: string;

  constructor(
    private readonly progress: Progress,
    id: string,
    private readonly label: string,
  ) {
    this.id = `${id}-confirm`;
  }

  waiting(ms: number): void {
    this.progress.step(this.id, `Waiting for the ${this.label} to be confirmed… ${Math.round(ms / 1000)} s`, "active");
  }

  /** `depth` undefined: confirmed before any depth was heard of (by the read when the stream opened, or by polling). */
  confirmed(ms: number, depth: number | undefined, final: boolean, again: boolean): void {
    const where = depth === undefined ? "" : ` · ${depth === 1 ? "in the newest block" : `${depth} blocks deep`}${final ? " (final)" : ""}`;
    const head = again ? `Confirmed the ${this.label} again` : `Confirmed the ${this.label} in ${(ms / 1000).toFixed(1)} s`;
    this.progress.step(this.id, head + where, "done", {
      depth: depth === undefined ? "" : String(depth),
      chain: final ? "final" : "confirmed",
    });
  }

  rolledBack(depth: number): void {
    this.progress.step(
      this.id,
      `The ${this.label} was rolled back (it was ${depth === 1 ? "in the newest block" : `${depth} blocks deep`}): waiting for a block to take it again`,
      "active",
      { depth: "0", chain: "rolled-back" },
    );
  }
}

/**
 * Waits until `txHash` is in a block. With `follow`, keeps its step up to date afterwards — its depth at each block,
 * a rollback, its confirmation again — until the service calls it final or `signal` aborts.
 *
 * The stream of the transaction's `transaction.confirmed` and `transaction.rolled_back` says when. `/transaction/confirm`
 * is read only
 * - when the stream opens (again) before the confirmation: the transaction may have entered a block before the stream
 *   started, and a stream without a resume id starts at the log's end;
 * - when the stream announces the confirmation: confirm's 200 means every read the transaction affects already
 *   reflects it (docs/decisions.md#read-your-writes), so the lookups and short links that follow find the new
 *   certificates — the event may come a moment before the service's projections have it.
 * Polling it every second, as the page did before the stream, is kept for when there is no stream to follow: a browser
 * without EventSource, a service that answers none (429 with too many streams from this address, 503 without the
 * events service), or a stream that keeps failing (a proxy that cuts it). The page still learns of the confirmation
 * then; only the depth updates need the stream.
 */
function confirmation(txHash: string, step: ConfirmStep, opts: { follow: boolean; signal?: AbortSignal }): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const started = Date.now();
    let confirmedAfterMs: number | undefined;
    /** nothing more to wait for or show: final, failed or aborted */
    let over = false;
    let depth: number | undefined;
    let final = false;
    let rolledBack = false;
    let poller: ReturnType<typeof setInterval> | undefined;
    const ticker = setInterval(() => step.waiting(Date.now() - started), 1000);
    const stopWaiting = () => {
      clearInterval(ticker);
      clearInterval(poller);
      clearTimeout(timeout);
    };
    const stop = () => {
      over = true;
      stopWaiting();
      stream.close();
      opts.signal?.removeEventListener("abort", abort);
    };
    const fail = (err: unknown) => {
      if (over || confirmedAfterMs !== undefined) return;
      stop();
      reject(err);
    };
    const abort = () => (confirmedAfterMs === undefined ? fail(new Error("stopped waiting for the confirmation")) : stop());
    const confirmed = () => {
      if (over || confirmedAfterMs !== undefined) return;
      confirmedAfterMs = Date.now() - started;
      stopWaiting();
      step.confirmed(confirmedAfterMs, depth, final, false);
      if (!opts.follow || final) stop();
      resolve();
    };

    // One confirm read at a time; asked again while one runs, it reads once more after it.
    let reading: Promise<void> | undefined;
    let again = false;
    const settle = (): Promise<void> => {
      if (over || confirmedAfterMs !== undefined) return Promise.resolve();
      if (reading !== undefined) {
        again = true;
        return reading;
      }
      const read = async () => {
        do {
          again = false;
          if (await isConfirmed(txHash)) return confirmed();
        } while (again && !over);
      };
      reading = read()
        .catch(fail)
        .finally(() => (reading = undefined));
      return reading;
    };

    const timeout = setTimeout(() => {
      void settle().then(() => fail(new Error(`${txHash} is not confirmed after ${CONFIRM_TIMEOUT_MS / 1000} s`)));
    }, CONFIRM_TIMEOUT_MS);
    step.waiting(0);
    const stream = followEvents([`transaction:${txHash}`], ["transaction.confirmed", "transaction.rolled_back"], {
      opened: () => void settle(),
      event: (e) => {
        if (over) return;
        if (e.type === "transaction.confirmed") {
          const data = e.data as EventData["transaction.confirmed"];
          depth = data.depth;
          final = data.final;
          if (confirmedAfterMs === undefined) return void settle();
          step.confirmed(confirmedAfterMs, depth, final, rolledBack);
          if (final) stop();
        } else if (e.type === "transaction.rolled_back" && confirmedAfterMs !== undefined) {
          rolledBack = true;
          step.rolledBack((e.data as EventData["transaction.rolled_back"]).depth);
        }
      },
      failed: () => {
        if (over || confirmedAfterMs !== undefined) return;
        poller = setInterval(() => void settle(), POLL_MS);
        void settle();
      },
    });
    opts.signal?.addEventListener("abort", abort);
  });
}

async function signAndSubmit(
  wallet: Cip30Api,
  tx: string,
  progress: Progress,
  id: string,
  label: string,
  follow: { signal?: AbortSignal } | undefined,
): Promise<string> {
  progress.step(`${id}-sign`, WORDS.sign(label), "active");
  let witnessSet: string;
  try {
    witnessSet = await wallet.signTx(tx, true);
  } catch (err) {
    progress.step(`${id}-sign`, WORDS.notSigned(walletErrorMessage(err)), "failed");
    throw new SaidError("signing was cancelled or failed", { cause: err });
  }
  progress.step(`${id}-sign`, WORDS.signed(label), "done");
  progress.step(`${id}-submit`, WORDS.sending(label), "active");
  let txHash: string;
  try {
    txHash = await submit(tx, witnessSet);
  } catch (err) {
    progress.step(`${id}-submit`, WORDS.notSent(err instanceof Error ? err.message : String(err)), "failed");
    throw new SaidError("the transaction was not sent", { cause: err });
  }
  progress.step(`${id}-submit`, WORDS.sent(label, txHash), "done", { transaction: txHash });
  await confirmation(txHash, new ConfirmStep(progress, id, label), {
    follow: follow !== undefined,
    ...(follow?.signal !== undefined ? { signal: follow.signal } : {}),
  });
  return txHash;
}

/**
 * Issues the certificates from `address`; returns the transaction hash once it is confirmed. Its step goes on showing
 * the transaction's depth and rollbacks until it is final or `signal` aborts.
 */
export async function issueCertificates(
  wallet: Cip30Api,
  address: string,
  certificates: CertificateRequest[],
  progress: Progress,
  signal?: AbortSignal,
): Promise<string> {
  const request = { type: "default", address, certificates };
  progress.step("build", WORDS.preparing(certificates.length), "active");
  let built = await buildSettled("/transaction/build", request, progress, "build");
  // The service's messages are for API clients: every step says what happened in the user's terms instead.
  const outcome = (id: string, answer: BuildResponse) =>
    answer.status.code === "SUCCESS"
      ? progress.step(id, WORDS.prepared(certificates.length), "done")
      : progress.step(id, refusalSaid(answer.status.code, answer.status.message), "failed", { code: answer.status.code });
  if (built.status.code === "COLLATERAL_REQUIRED") {
    progress.step("build", WORDS.collateralNeeded, "done");
    progress.step("collateral", WORDS.preparingCollateral, "active");
    const collateral = await buildSettled("/transaction/prepare-collateral", { senderAddress: address }, progress, "collateral");
    if (collateral.status.code === "SUCCESS" && collateral.unsignedTransaction) {
      progress.step("collateral", WORDS.preparedCollateral, "done");
      await signAndSubmit(wallet, collateral.unsignedTransaction, progress, "collateral", "collateral transaction", undefined);
    } else if (collateral.status.code === "COLLATERAL_ALREADY_AVAILABLE") {
      progress.step("collateral", WORDS.collateralThere, "done");
    } else {
      outcome("collateral", collateral);
      throw new SaidError(collateral.status.message);
    }
    progress.step("build-again", WORDS.preparingAgain, "active");
    built = await buildSettled("/transaction/build", request, progress, "build-again");
    outcome("build-again", built);
  } else {
    outcome("build", built);
  }
  if (built.status.code !== "SUCCESS" || !built.unsignedTransaction) throw new SaidError(built.status.message);
  return signAndSubmit(wallet, built.unsignedTransaction, progress, "certificates", "certificate transaction", {
    ...(signal !== undefined ? { signal } : {}),
  });
}
