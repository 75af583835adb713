/**
 * The calendar's transparency-log source, announcing what each round took (`receipt.checkpointed`, docs/events.md):
 * once the positions are marked logged, one event per request, with the size and root of the checkpoint the round
 * signed. The announcement never fails the round: the events go to a queue (shared/mesh/event-appender.ts), and a
 * failure to read the root is only reported.
 */
import type { NewEvent } from "./event-types";
import type { LogSource } from "../transparency-log/sequencer";
import { receiptsCheckpointed } from "./service-events";

export interface ReceiptAnnouncer {
  /** the root of the log's tree of `size` entries, hex */
  rootAt(size: number): Promise<string>;
  append(events: NewEvent[]): void;
  now(): number;
  onError(err: unknown): void;
}

export function announcingReceipts(source: LogSource, announcer: ReceiptAnnouncer): LogSource {
  return {
    anyWaiting: () => source.anyWaiting(),
    waiting: (max) => source.waiting(max),
    recordsOf: (parts) => source.recordsOf(parts),
    async markLogged(parts, start) {
      await source.markLogged(parts, start);
      try {
        const size = start + parts.reduce((n, p) => n + p.to - p.from, 0);
        announcer.append(receiptsCheckpointed(parts, start, { size, root: await announcer.rootAt(size) }, announcer.now()));
      } catch (err) {
        announcer.onError(err);
      }
    },
  };
}
