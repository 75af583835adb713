/**
 * Submission: merge witnesses, submit through the chain, record the in-flight transaction, and turn every
 * failure into a typed outcome the endpoint maps to HTTP (docs/api.md#submit):
 * - malformed hex/CBOR → INVALID_TRANSACTION;
 * - inputs consumed by a transaction still waiting for a block → INPUTS_IN_FLIGHT;
 * - any other ledger rejection → LEDGER_REJECTED with the ledger's reason as a sentence and its Ogmios code;
 * - chain unreachable → CHAIN_UNAVAILABLE;
 * - the same transaction again (a client retry) → its hash, as the first time: it is in the mempool or on chain.
 * "In flight" is decided from the chain itself: an input the ledger calls unknown that still exists in the
 * confirmed UTxO set can only have been spent by a mempool transaction. That holds for every replica and for
 * transactions submitted elsewhere, with no shared lock to consult.
 */
import { DomainError } from "../domain/errors";
import { TxHash } from "../domain/hex";
import { outRefKey } from "../domain/out-ref";
import { describeLedgerRejection, type LedgerFailureLike } from "../chain/ledger-rejection";
import { inFlightExpiresAt, type ExpiryPolicy } from "./in-flight-expiry";
import { prepareSignedTransaction, type SubmitRequest } from "./signed-transaction";

export interface InflightRecorder {
  recordSubmitted(entry: { txId: TxHash; cborHex: string; expiresAt: number }): unknown;
}

export interface SubmissionPorts {
  /** submits CBOR hex, resolves with the tx id; rejects with a chain error carrying the Ogmios `code` and `data` */
  submit(cborHex: string): Promise<string>;
  /** is this transaction already in the mempool or on chain (a resubmission)? */
  knownTransaction(txId: string): Promise<boolean>;
  /** which of these `txId#index` references exist in the confirmed UTxO set */
  confirmedOutputs(refs: readonly string[]): Promise<string[]>;
  slotToTime(slot: number): number;
  now(): number;
  /** in-flight registry; null when this deployment does not track submissions */
  inflight: InflightRecorder | null;
  expiryPolicy?: ExpiryPolicy;
}

export interface SubmitResult {
  transactionHash: string;
  /** Unix ms the inputs stay locked until (null when not tracked) */
  inFlightUntil: number | null;
}

interface ChainFailure extends LedgerFailureLike {
  type?: string;
}

const refKey = (r: unknown): string | null => {
  if (typeof r !== "object" || r === null) return null;
  const o = r as { transaction?: { id?: unknown }; index?: unknown };
  return typeof o.transaction?.id === "string" && typeof o.index === "number"
    ? outRefKey({ txHash: o.transaction.id, index: o.index })
    : null;
};

/**
 * @throws DomainError INVALID_TRANSACTION | INPUTS_IN_FLIGHT | LEDGER_REJECTED | CHAIN_UNAVAILABLE
 */
export async function submitSignedTransaction(req: SubmitRequest, ports: SubmissionPorts): Promise<SubmitResult> {
  const signed = prepareSignedTransaction(req);
  let txId: TxHash;
  try {
    // the chain's answer: the id Ogmios reports
    txId = TxHash(await ports.submit(signed.cborHex));
  } catch (err) {
    const failure = err as ChainFailure;
    if (failure.type === "UNKNOWN_OUTPUT_REFERENCES" && (await ports.knownTransaction(signed.txId).catch(() => false))) {
      return { transactionHash: signed.txId, inFlightUntil: null };
    }
    throw await rejectionOf(failure, signed.inputs, ports);
  }
  let inFlightUntil: number | null = null;
  if (ports.inflight) {
    inFlightUntil = inFlightExpiresAt(signed.ttlSlot, ports.slotToTime, ports.now(), ports.expiryPolicy);
    await ports.inflight.recordSubmitted({ txId, cborHex: signed.cborHex, expiresAt: inFlightUntil });
  }
  return { transactionHash: txId, inFlightUntil };
}

async function rejectionOf(err: ChainFailure, inputs: readonly string[], ports: SubmissionPorts): Promise<DomainError> {
  if (err.code === undefined || err.type === "CHAIN_UNAVAILABLE" || err.type === "CHAIN_TIMEOUT") {
    return new DomainError(
      "CHAIN_UNAVAILABLE",
      `The chain could not take the transaction right now: ${err.message ?? "no connection"}. Retry shortly.`,
      {},
    );
  }
  if (err.type === "UNKNOWN_OUTPUT_REFERENCES") {
    const data = err.data as { unknownOutputReferences?: unknown[] } | undefined;
    const unknown = (data?.unknownOutputReferences ?? []).map(refKey).filter((k): k is string => k !== null);
    const spentInputs = unknown.filter((k) => inputs.includes(k));
    const stillOnChain = spentInputs.length > 0 ? await ports.confirmedOutputs(spentInputs).catch(() => []) : [];
    if (stillOnChain.length > 0) {
      return new DomainError(
        "INPUTS_IN_FLIGHT",
        `Input(s) ${stillOnChain.join(", ")} are already spent by another transaction that is still waiting to be included in a block. Wait for it to confirm (or expire), then build a fresh transaction.`,
        { inputs: stillOnChain, code: err.code },
      );
    }
  }
  const rejection = describeLedgerRejection(err);
  return new DomainError("LEDGER_REJECTED", rejection.message, {
    code: rejection.code,
    reason: rejection.reason,
    details: rejection.details,
  });
}
