/**
 * The events of the chain (docs/events.md#the-chain), built from what the fact log says: pure functions of a block,
 * its transactions' facts and a transaction's confirmation, each event with its deterministic key.
 *
 * A key names the event and the block *incarnation* it came from: the block id and the sequence number of the last
 * rollback marker before it (the producer's `epoch`). Deriving the same block again gives the same keys (the log keeps
 * the first); a block the chain adopts again after a rollback gives new ones.
 */
import type { ProtocolFact } from "../indexer/protocol-decoder";
import { TLOG_CHECKPOINT_SCHEME } from "../transparency-log/log-entries";
import { subject, type BlockRef, type NewEvent, type PublicEvent } from "./event-types";

/** A block as the producer meets it: from the fact log, or a tip the indexer reported. */
export interface ChainBlock extends BlockRef {
  /** Unix ms */
  time: number;
}

/** A confirmed transaction the producer follows until it is final (and, for rollbacks, beyond). */
export interface Confirmation {
  transactionHash: string;
  includedIn: BlockRef;
  /** the epoch of its block (see the module header) */
  epoch: number;
  depth: number;
  /** the subjects of everything it carries, its own `transaction:` first */
  subjects: string[];
  certificates: { position: number; hash: string; subjects: string[] }[];
}

/** A certificate fact as the chain events read it. */
type CertificateFact = Extract<ProtocolFact, { type: "certificate.issued" }>;

const iso = (ms: number): string => new Date(ms).toISOString();
const refOf = (b: BlockRef): BlockRef => ({ slot: b.slot, id: b.id, height: b.height });
export const incarnation = (block: BlockRef, epoch: number): string => `${block.id}/${epoch}`;

/** The depth a transaction of block height `included` has once the chain's tip is at `tip`, capped at `finality`. */
export const depthAt = (included: number, tip: number, finality: number): number => Math.min(tip - included + 1, finality);

export function certificateAnchored(
  fact: CertificateFact,
  tx: string,
  block: ChainBlock,
  epoch: number,
  address: string | null,
): NewEvent<"certificate.anchored"> {
  const subjects = [subject("hash", fact.hash), subject("transaction", tx)];
  if (address !== null) subjects.push(subject("address", address));
  return {
    key: `certificate.anchored:${tx}:${fact.position}@${incarnation(block, epoch)}`,
    type: "certificate.anchored",
    timestamp: iso(block.time),
    block: refOf(block),
    subjects,
    data: {
      hash: fact.hash,
      algorithm: fact.algorithm,
      issuer: fact.issuer,
      address: address ?? "",
      transactionHash: tx,
      position: fact.position,
      metadata: fact.metadata,
      bootstrapTokenName: fact.bootstrapName,
      stateId: fact.stateId,
    },
  };
}

export function stateInvalidated(stateId: string, tx: string, block: ChainBlock, epoch: number): NewEvent<"state.invalidated"> {
  return {
    key: `state.invalidated:${tx}:${stateId}@${incarnation(block, epoch)}`,
    type: "state.invalidated",
    timestamp: iso(block.time),
    block: refOf(block),
    subjects: [subject("state", stateId), subject("transaction", tx)],
    data: { stateId, transactionHash: tx },
  };
}

/** The confirmation of `c` at `depth`, reached at block `at` (its own block for depth 1). */
export function transactionConfirmed(c: Confirmation, depth: number, at: ChainBlock, finality: number): NewEvent<"transaction.confirmed"> {
  return {
    key: `transaction.confirmed:${c.transactionHash}@${incarnation(c.includedIn, c.epoch)}:${depth}`,
    type: "transaction.confirmed",
    timestamp: iso(at.time),
    block: refOf(at),
    subjects: c.subjects,
    data: { transactionHash: c.transactionHash, depth, final: depth >= finality, includedIn: refOf(c.includedIn) },
  };
}

/**
 * What a rollback to `point` (null: to the chain's origin) undoes of one confirmed transaction: its rollback, then its
 * certificates' in reverse order — the reverse of the order they were announced in.
 */
export function rolledBack(c: Confirmation, point: BlockRef | null, now: number): NewEvent[] {
  const at = incarnation(c.includedIn, c.epoch);
  const block = point && refOf(point);
  const transaction: NewEvent<"transaction.rolled_back"> = {
    key: `transaction.rolled_back:${c.transactionHash}@${at}`,
    type: "transaction.rolled_back",
    timestamp: iso(now),
    block,
    subjects: c.subjects,
    data: { transactionHash: c.transactionHash, includedIn: refOf(c.includedIn), depth: c.depth },
  };
  const certificates = [...c.certificates]
    .sort((a, b) => b.position - a.position)
    .map((cert): NewEvent<"certificate.rolled_back"> => ({
      key: `certificate.rolled_back:${c.transactionHash}:${cert.position}@${at}`,
      type: "certificate.rolled_back",
      timestamp: iso(now),
      block,
      subjects: cert.subjects,
      data: { hash: cert.hash, transactionHash: c.transactionHash, position: cert.position, includedIn: refOf(c.includedIn) },
    }));
  return [transaction, ...certificates];
}

/** The checkpoint a certificate anchors, when it is one of a calendar's transparency log (its size and root). */
export function anchoredCheckpoint(fact: CertificateFact): { size: number; root: string } | undefined {
  if (fact.algorithm !== TLOG_CHECKPOINT_SCHEME) return undefined;
  try {
    const meta = JSON.parse(fact.metadata) as { calendar?: unknown; tlog?: { size?: unknown } };
    const size = meta.tlog?.size;
    return meta.calendar === true && typeof size === "number" && Number.isSafeInteger(size) && size > 0
      ? { size, root: fact.hash }
      : undefined;
  } catch {
    return undefined;
  }
}

/** A receipt.checkpointed event's positions, anchored by the checkpoint transaction `tx` in `block`. */
export function receiptAnchored(
  checkpointed: PublicEvent<"receipt.checkpointed">,
  checkpoint: { size: number; root: string },
  tx: string,
  block: ChainBlock,
  epoch: number,
): NewEvent<"receipt.anchored"> {
  const { requestId, positions, firstIndex } = checkpointed.data;
  return {
    key: `receipt.anchored:${requestId}:${positions.from}:${tx}@${incarnation(block, epoch)}`,
    type: "receipt.anchored",
    timestamp: iso(block.time),
    block: refOf(block),
    subjects: [subject("request", requestId), subject("transaction", tx)],
    data: {
      requestId,
      positions: { ...positions },
      firstIndex,
      checkpointSize: checkpoint.size,
      checkpointRoot: checkpoint.root,
      transactionHash: tx,
    },
  };
}
