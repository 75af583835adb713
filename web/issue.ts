/**
 * Issuing from the browser (docs/web-pages.md#issuing): build through the API — preparing the wallet's collateral
 * first when the answer is COLLATERAL_REQUIRED — sign in the CIP-30 wallet, submit, and wait for the confirmation.
 * Every step is reported to `progress`, so the page shows where it is.
 */
import { isConfirmed, postBuild, submit, type BuildResponse } from "./api";
import { walletErrorMessage, type Cip30Api } from "./cip30";

export interface CertificateRequest {
  hash: string;
  algorithm: string;
  metadata?: string;
}

export type StepState = "active" | "done" | "failed";

export interface Progress {
  /** Starts or updates a step (`id` stays the same for one step). */
  step(id: string, text: string, state: StepState): void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const CONFIRM_TIMEOUT_MS = 300_000;
const PENDING_RETRIES = 20;

/** Builds until the answer is not PENDING_TRANSACTION (the wallet's previous transaction is still in flight). */
async function buildSettled(path: string, request: unknown, progress: Progress, id: string): Promise<BuildResponse> {
  for (let attempt = 0; ; attempt++) {
    const res = await postBuild(path, request);
    if (res.status.code !== "PENDING_TRANSACTION" || attempt >= PENDING_RETRIES) return res;
    progress.step(id, `${res.status.message} Retrying…`, "active");
    await sleep(3000);
  }
}

async function signAndSubmit(wallet: Cip30Api, tx: string, progress: Progress, id: string, label: string): Promise<string> {
  progress.step(`${id}-sign`, `Sign the ${label} in your wallet`, "active");
  let witnessSet: string;
  try {
    witnessSet = await wallet.signTx(tx, true);
  } catch (err) {
    progress.step(`${id}-sign`, `The wallet did not sign: ${walletErrorMessage(err)}`, "failed");
    throw new Error("signing was cancelled or failed", { cause: err });
  }
  progress.step(`${id}-sign`, `Signed the ${label}`, "done");
  progress.step(`${id}-submit`, `Submitting the ${label}`, "active");
  const txHash = await submit(tx, witnessSet);
  progress.step(`${id}-submit`, `Submitted the ${label}: ${txHash}`, "done");
  const started = Date.now();
  for (;;) {
    const seconds = Math.round((Date.now() - started) / 1000);
    progress.step(`${id}-confirm`, `Waiting for the ${label} to be confirmed… ${seconds} s`, "active");
    if (await isConfirmed(txHash)) break;
    if (Date.now() - started > CONFIRM_TIMEOUT_MS) throw new Error(`${txHash} is not confirmed after ${CONFIRM_TIMEOUT_MS / 1000} s`);
    await sleep(1000);
  }
  progress.step(`${id}-confirm`, `Confirmed the ${label} in ${((Date.now() - started) / 1000).toFixed(1)} s`, "done");
  return txHash;
}

/** Issues the certificates from `address`; returns the transaction hash once it is confirmed. */
export async function issueCertificates(
  wallet: Cip30Api,
  address: string,
  certificates: CertificateRequest[],
  progress: Progress,
): Promise<string> {
  const request = { type: "default", address, certificates };
  progress.step("build", "Building the transaction", "active");
  let built = await buildSettled("/transaction/build", request, progress, "build");
  if (built.status.code === "COLLATERAL_REQUIRED") {
    progress.step("build", "Your wallet needs a collateral output first (one extra transaction)", "done");
    progress.step("collateral", "Building the collateral transaction", "active");
    const collateral = await buildSettled("/transaction/prepare-collateral", { senderAddress: address }, progress, "collateral");
    if (collateral.status.code === "SUCCESS" && collateral.unsignedTransaction) {
      progress.step("collateral", "Built the collateral transaction", "done");
      await signAndSubmit(wallet, collateral.unsignedTransaction, progress, "collateral", "collateral transaction");
    } else if (collateral.status.code === "COLLATERAL_ALREADY_AVAILABLE") {
      progress.step("collateral", collateral.status.message, "done");
    } else {
      progress.step("collateral", collateral.status.message, "failed");
      throw new Error(collateral.status.message);
    }
    progress.step("build-again", "Building the certificate transaction", "active");
    built = await buildSettled("/transaction/build", request, progress, "build-again");
    progress.step("build-again", built.status.message, built.status.code === "SUCCESS" ? "done" : "failed");
  } else {
    progress.step("build", built.status.message, built.status.code === "SUCCESS" ? "done" : "failed");
  }
  if (built.status.code !== "SUCCESS" || !built.unsignedTransaction) throw new Error(built.status.message);
  return signAndSubmit(wallet, built.unsignedTransaction, progress, "certificates", "certificate transaction");
}
