/**
 * Publishes the indexer's chain events on their plain NATS subjects (shared/records/published-events.ts,
 * docs/nats-contract.md), beside Moleculer's broadcast, so an outside service can follow them with a plain NATS client.
 *
 * It uses the NATS connection Moleculer's transporter already holds (`broker.transit.tx.client`), read at each
 * publication because the transporter replaces it when it connects again: no second connection, credentials or
 * reconnection logic, and the indexer's NATS user is the one allowed to publish `<NAMESPACE>.chain.>`. Publishing
 * never blocks or fails the indexer: `publish` only queues the message on the connection (core NATS, fire and forget),
 * and a refusal (connection closed or draining, payload too large) is logged — once per run of failures, with the
 * count when publishing works again — never thrown. Without a NATS transporter (embedded mode) there is no publisher.
 */
import { Transporters, type Logger, type ServiceBroker } from "moleculer";
import { isPublishedEvent, publishedSubject } from "../records/published-events";

/** The part of nats.js's connection used here. */
interface NatsPublisher {
  publish(subject: string, payload?: Uint8Array): void;
}

export interface ChainEventPublisher {
  /** Publishes `payload` on the event's subject if `event` is a published one; anything else is ignored. */
  publish(event: string, payload: unknown): void;
}

const encoder = new TextEncoder();

/** The publisher of a broker whose transporter is NATS; undefined without one (embedded mode, another transporter). */
export function chainEventPublisher(broker: ServiceBroker, namespace: string, logger: Logger): ChainEventPublisher | undefined {
  const transporter = (broker as unknown as { transit?: { tx?: unknown } }).transit?.tx;
  if (!(transporter instanceof Transporters.NATS)) return undefined;
  const connection = (): NatsPublisher | null | undefined => (transporter as unknown as { client?: NatsPublisher | null }).client;
  let failing = 0;
  return {
    publish(event, payload) {
      if (!isPublishedEvent(event)) return;
      const subject = publishedSubject(namespace, event);
      try {
        const client = connection();
        if (!client) throw new Error("no NATS connection");
        client.publish(subject, encoder.encode(JSON.stringify(payload)));
        if (failing > 0) logger.info(`Publishing chain events on NATS again; ${failing} were not published.`);
        failing = 0;
      } catch (err) {
        if (failing === 0) {
          logger.warn(`A chain event was not published on ${subject} (later failures are counted, not logged)`, {
            error: err instanceof Error ? err.message : String(err),
          });
        }
        failing += 1;
      }
    },
  };
}
