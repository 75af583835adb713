/**
 * How many leaves wait for the calendar, in total and per client, for the limits `POST /batch/submit` checks
 * (docs/merkle-batches.md#limits): counters in the store that a submission increments and each round sets again
 * from the requests themselves. A submission so reads two small documents instead of every pending request (whose
 * documents hold their hashes), and a counter left wrong (a crash between a request and its increment, a submission
 * landing while a round recounts) is right again after the next round, at most an interval later.
 */
import type { Collection, StoredDocument } from "../store";
import type { CalendarRequestDocument } from "./calendar-requests";

interface PendingCounter extends StoredDocument {
  leaves: number;
}

const TOTAL = "total";
const ofClient = (client: string): string => `client:${client}`;

export class PendingCounts {
  constructor(
    private readonly counters: Collection<PendingCounter>,
    private readonly requests: Collection<CalendarRequestDocument>,
  ) {}

  /** The leaves waiting from `client` (0 when none is named) and from everyone. */
  async of(client?: string): Promise<{ own: number; total: number }> {
    const [own, total] = await Promise.all([
      client === undefined ? undefined : this.counters.findOne({ _id: ofClient(client) }),
      this.counters.findOne({ _id: TOTAL }),
    ]);
    return { own: own?.leaves ?? 0, total: total?.leaves ?? 0 };
  }

  /** `count` more leaves of `client` wait. */
  async add(client: string, count: number): Promise<void> {
    await Promise.all(
      [ofClient(client), TOTAL].map((_id) => this.counters.updateOne({ _id }, { $inc: { leaves: count } }, { upsert: true })),
    );
  }

  /** Counts the pending leaves of the requests again and sets the counters to them; the total. */
  async recount(): Promise<number> {
    const docs = await this.requests.findProjected({ pendingLeaves: { $gt: 0 } }, { pendingLeaves: 1, client: 1, _id: 0 });
    const byCounter = new Map<string, number>([[TOTAL, 0]]);
    for (const d of docs) {
      const leaves = d.pendingLeaves ?? 0;
      byCounter.set(TOTAL, byCounter.get(TOTAL)! + leaves);
      if (d.client !== undefined) byCounter.set(ofClient(d.client), (byCounter.get(ofClient(d.client)) ?? 0) + leaves);
    }
    // counters of clients with nothing pending any more go back to 0
    for (const c of await this.counters.findProjected({ leaves: { $gt: 0 } }, { _id: 1 }))
      if (!byCounter.has(c._id!)) byCounter.set(c._id!, 0);
    for (const [_id, leaves] of byCounter) await this.counters.updateOne({ _id }, { $set: { leaves } }, { upsert: true });
    return byCounter.get(TOTAL)!;
  }
}
