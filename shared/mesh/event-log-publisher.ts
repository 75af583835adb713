/**
 * Publishes each event the events service stores in the public event log on `<NAMESPACE>.events.<type>`, as the
 * plain JSON SSE and webhooks carry (docs/nats-contract.md#the-event-log), right after it is stored. At most once:
 * an event stored by a process that dies before publishing it, or refused by the connection, is not published again;
 * the gap-free replay is the log's (SSE `Last-Event-ID`, a webhook replay). The events service's NATS user is the one
 * allowed to publish `<NAMESPACE>.events.>`.
 */
import type { Logger, ServiceBroker } from "moleculer";
import type { PublicEvent } from "../events/event-types";
import { eventLogSubject } from "../records/published-events";
import { plainNatsPublisher } from "./plain-nats-publisher";

/** Publishes a stored event on its type's subject; undefined without a NATS transporter (embedded mode). */
export function eventLogPublisher(broker: ServiceBroker, namespace: string, logger: Logger): ((event: PublicEvent) => void) | undefined {
  const nats = plainNatsPublisher(broker, logger, "event log's events");
  return nats && ((event) => nats.publish(eventLogSubject(namespace, event.type), event));
}
