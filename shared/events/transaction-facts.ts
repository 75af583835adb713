/**
 * What one transaction's protocol facts in a block announce (docs/events.md#the-chain): `certificate.anchored` per
 * certificate and `state.invalidated` per burned state, the subjects its confirmation names (its certificates' hashes
 * and issuers, its states and their owners), and the calendar checkpoints it anchors; and, for an anchored
 * checkpoint, the `receipt.anchored` events of the receipts it holds (read from the log's `receipt.checkpointed`).
 */
import type { FactRecord } from "../indexer/fact-log";
import {
  anchoredCheckpoint,
  certificateAnchored,
  receiptAnchored,
  stateInvalidated,
  type ChainBlock,
  type Confirmation,
} from "./chain-events";
import type { EventLog } from "./event-log";
import { subject, type NewEvent, type PublicEvent } from "./event-types";

/** Receipts read per page when a checkpoint is anchored. */
const RECEIPTS_PER_PAGE = 1000;

export interface TransactionFacts {
  /** its facts' events, in fact order */
  events: NewEvent[];
  /** what its confirmation names, its own `transaction:` first */
  subjects: string[];
  certificates: Confirmation["certificates"];
  /** the calendar checkpoints it anchors */
  checkpoints: { size: number; root: string }[];
}

/**
 * The events and subjects of transaction `tx`'s facts in `block`.
 * @param addressOf an issuer's or owner's enterprise address, null for a key hash that is none
 */
export function transactionFacts(
  tx: string,
  facts: readonly FactRecord[],
  block: ChainBlock,
  epoch: number,
  addressOf: (keyHash: string) => string | null,
): TransactionFacts {
  const events: NewEvent[] = [];
  const subjects = new Set([subject("transaction", tx)]);
  const certificates: Confirmation["certificates"] = [];
  const checkpoints: { size: number; root: string }[] = [];
  for (const { fact } of facts) {
    if (fact?.type === "certificate.issued") {
      const e = certificateAnchored(fact, tx, block, epoch, addressOf(fact.issuer));
      events.push(e);
      e.subjects.forEach((s) => subjects.add(s));
      certificates.push({ position: fact.position, hash: fact.hash, subjects: e.subjects });
      const checkpoint = anchoredCheckpoint(fact);
      if (checkpoint) checkpoints.push(checkpoint);
    } else if (fact?.type === "state.burned") {
      const e = stateInvalidated(fact.stateId, tx, block, epoch);
      events.push(e);
      e.subjects.forEach((s) => subjects.add(s));
    } else if (fact?.type === "state.minted" || fact?.type === "state.updated") {
      subjects.add(subject("state", fact.stateId));
      const owner = addressOf(fact.owner);
      if (owner !== null) subjects.add(subject("address", owner));
    }
  }
  return { events, subjects: [...subjects], certificates, checkpoints };
}

/**
 * The receipt.anchored events of the receipts a checkpoint holds beyond `from`, or undefined when the log has no
 * receipt of this checkpoint (not the calendar's log, or its receipts never reached the log).
 */
export async function receiptsAnchoredBy(
  log: Pick<EventLog, "checkpointedBetween">,
  checkpoint: { size: number; root: string },
  from: number,
  tx: string,
  block: ChainBlock,
  epoch: number,
): Promise<NewEvent[] | undefined> {
  const receipts: PublicEvent<"receipt.checkpointed">[] = [];
  for (let next = from; ;) {
    const page = await log.checkpointedBetween(next, checkpoint.size, RECEIPTS_PER_PAGE);
    receipts.push(...page);
    if (page.length < RECEIPTS_PER_PAGE) break;
    next = page[page.length - 1]!.data.firstIndex + 1;
  }
  // the newest receipt of the checkpoint was checkpointed in it: the same size and root, else it is not this log's
  const newest = receipts[receipts.length - 1];
  if (!newest || newest.data.checkpointSize !== checkpoint.size || newest.data.checkpointRoot !== checkpoint.root) return undefined;
  return receipts.map((r) => receiptAnchored(r, checkpoint, tx, block, epoch));
}
