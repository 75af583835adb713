/**
 * The events other services produce (docs/events.md), built where they happen and appended through the events
 * service: a submission handed to the node, positions of calendar requests the transparency log took, a list
 * extension's rebuilt transaction. None comes from a block (`block: null`); each key names what it is about, so a
 * repeat (a client retrying its submission, a log round finished again after a crash) is appended once.
 */
import { subject, type NewEvent, type RequestPositions } from "./event-types";

const iso = (ms: number): string => new Date(ms).toISOString();

export function transactionSubmitted(
  transactionHash: string,
  inFlightUntil: number | null,
  now: number,
): NewEvent<"transaction.submitted"> {
  return {
    key: `transaction.submitted:${transactionHash}`,
    type: "transaction.submitted",
    timestamp: iso(now),
    block: null,
    subjects: [subject("transaction", transactionHash)],
    data: { transactionHash, inFlightUntil },
  };
}

/**
 * One event per request of a transparency-log round: its positions [from, to) became the log's indices from `start`
 * on, in order, and the round signed the checkpoint of `checkpoint.size` (root hex).
 */
export function receiptsCheckpointed(
  parts: readonly { request: string; from: number; to: number }[],
  start: number,
  checkpoint: { size: number; root: string },
  now: number,
): NewEvent<"receipt.checkpointed">[] {
  let index = start;
  return parts.map((p) => {
    const firstIndex = index;
    index += p.to - p.from;
    const positions: RequestPositions = { from: p.from, to: p.to };
    return {
      key: `receipt.checkpointed:${p.request}:${p.from}`,
      type: "receipt.checkpointed",
      timestamp: iso(now),
      block: null,
      subjects: [subject("request", p.request)],
      data: { requestId: p.request, positions, firstIndex, checkpointSize: checkpoint.size, checkpointRoot: checkpoint.root },
    };
  });
}

/** A list extension's build `previous` lost its list entry, and was built again as `rebuilt`. */
export function extensionRebuilt(
  extension: string,
  rebuilt: { policyId: string; previousTransactionHash: string; transactionHash: string; unsignedTransaction: string },
  now: number,
): NewEvent<"extension.rebuilt"> {
  return {
    key: `extension.rebuilt:${rebuilt.previousTransactionHash}:${rebuilt.transactionHash}`,
    type: "extension.rebuilt",
    timestamp: iso(now),
    block: null,
    subjects: [subject("list", rebuilt.policyId), subject("transaction", rebuilt.previousTransactionHash)],
    data: { extension, ...rebuilt },
  };
}
