/**
 * Publishes the indexer's chain events on their plain NATS subjects (shared/records/published-events.ts,
 * docs/nats-contract.md), beside Moleculer's broadcast, so an outside service can follow them with a plain NATS client.
 * The indexer's NATS user is the one allowed to publish `<NAMESPACE>.chain.>`; how a publication goes out (and fails
 * without failing the indexer): plain-nats-publisher.ts.
 */
import type { Logger, ServiceBroker } from "moleculer";
import { isPublishedEvent, publishedSubject } from "../records/published-events";
import { plainNatsPublisher } from "./plain-nats-publisher";

export interface ChainEventPublisher {
  /** Publishes `payload` on the event's subject if `event` is a published one; anything else is ignored. */
  publish(event: string, payload: unknown): void;
}

/** The publisher of a broker whose transporter is NATS; undefined without one (embedded mode, another transporter). */
export function chainEventPublisher(broker: ServiceBroker, namespace: string, logger: Logger): ChainEventPublisher | undefined {
  const nats = plainNatsPublisher(broker, logger, "chain events");
  if (!nats) return undefined;
  return {
    publish(event, payload) {
      if (isPublishedEvent(event)) nats.publish(publishedSubject(namespace, event), payload);
    },
  };
}
