/**
 * What a rollback marker of the fact log announces (docs/events.md#rollbacks): for every transaction confirmed after
 * its point (and derived before the marker), newest first, `transaction.rolled_back` then its certificates'
 * `certificate.rolled_back` (chain-events.ts `rolledBack`). The undone confirmations are forgotten, and the service's
 * own transactions without facts among them are awaited again: the node puts them back in its mempool.
 */
import type { FactRecord } from "../indexer/fact-log";
import type { AwaitedTransactions } from "./awaited-transactions";
import { rolledBack } from "./chain-events";
import type { BlockRef, NewEvent, PublicEvent } from "./event-types";
import { confirmationOf, type TrackedConfirmations } from "./tracked-confirmations";

export type RollbackMarker = Extract<FactRecord, { kind: "rollback" }>;

export interface RollbackPorts {
  confirmations: TrackedConfirmations;
  awaited: Pick<AwaitedTransactions, "awaitAgain">;
  append(events: NewEvent[]): Promise<PublicEvent[]>;
  now: () => number;
}

/**
 * Announces what the blocks after the marker's point confirmed as rolled back, newest first.
 * @returns the point the chain went back to, null for the origin
 */
export async function announceRollback(marker: RollbackMarker, ports: RollbackPorts): Promise<BlockRef | null> {
  const undone = await ports.confirmations.undoneBy(marker.rollbackTo, marker.seq);
  const point = marker.slot < 0 ? null : { slot: marker.slot, id: marker.blockId, height: marker.height };
  await ports.append(undone.flatMap((t) => rolledBack(confirmationOf(t), point, ports.now())));
  // the service's own transactions without facts may come back in a later block: await them again
  await ports.awaited.awaitAgain(undone.filter((u) => u.submittedOnly).map((u) => u._id));
  await ports.confirmations.forgetUndone(marker.rollbackTo, marker.seq);
  return point;
}
