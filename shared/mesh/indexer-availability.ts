/**
 * Waiting for the indexer, whose fact log the projections, the events service and the gateway's validators follow.
 * Moleculer's own wait logs two info lines per waiter; in one process the indexer starts alongside them, so on every
 * start the log said "Waiting for service(s) 'indexer'" five times for nothing. Here the wait is silent, and says
 * once, plainly, when the indexer is still missing after a while (scale mode: its process is not up yet).
 */
import type { ServiceBroker } from "moleculer";

type WaitLogger = NonNullable<Parameters<ServiceBroker["waitForServices"]>[3]>;

/** How long the wait stays silent. */
export const INDEXER_WAIT_NOTICE_MS = 10_000;

/** Resolves once an `indexer` service is reachable from this broker (never rejects: there is no deadline). */
export function whenIndexerAvailable(broker: ServiceBroker, waiter: string, noticeAfterMs = INDEXER_WAIT_NOTICE_MS): Promise<void> {
  const notice = setTimeout(
    () => broker.logger.info(`${waiter} waits for the indexer service (not reachable yet) and follows its fact log once it appears`),
    noticeAfterMs,
  );
  notice.unref();
  const quiet = { ...broker.logger, info: broker.logger.debug } as WaitLogger;
  return broker.waitForServices(["indexer"], 0, undefined, quiet).then(
    () => clearTimeout(notice),
    () => clearTimeout(notice),
  );
}
