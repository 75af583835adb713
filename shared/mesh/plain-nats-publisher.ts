/**
 * Plain JSON on plain NATS subjects, for outside services that follow the service without Moleculer
 * (docs/nats-contract.md): the indexer's chain events (chain-event-publisher.ts) and the public event log's events
 * (event-log-publisher.ts).
 *
 * It uses the NATS connection Moleculer's transporter already holds (`broker.transit.tx.client`), read at each
 * publication because the transporter replaces it when it connects again: no second connection, credentials or
 * reconnection logic, and the service's own NATS user is the one allowed to publish the subjects. Publishing never
 * blocks or fails the caller: `publish` only queues the message on the connection (core NATS, fire and forget), and
 * a refusal (connection closed or draining, payload too large) is logged — once per run of failures, with the count
 * when publishing works again — never thrown. Without a NATS transporter (embedded mode) there is no publisher.
 */
import { Transporters, type Logger, type ServiceBroker } from "moleculer";

/** The part of nats.js's connection used here. */
interface NatsConnectionPublish {
  publish(subject: string, payload?: Uint8Array): void;
}

export interface PlainNatsPublisher {
  /** Publishes `payload` as JSON on `subject`; never throws. */
  publish(subject: string, payload: unknown): void;
}

const encoder = new TextEncoder();

/**
 * The publisher of a broker whose transporter is NATS; undefined without one (embedded mode, another transporter).
 * @param what what is published, for the log lines ("chain events")
 */
export function plainNatsPublisher(broker: ServiceBroker, logger: Logger, what: string): PlainNatsPublisher | undefined {
  const transporter = (broker as unknown as { transit?: { tx?: unknown } }).transit?.tx;
  if (!(transporter instanceof Transporters.NATS)) return undefined;
  const connection = (): NatsConnectionPublish | null | undefined =>
    (transporter as unknown as { client?: NatsConnectionPublish | null }).client;
  let failing = 0;
  return {
    publish(subject, payload) {
      try {
        const client = connection();
        if (!client) throw new Error("no NATS connection");
        client.publish(subject, encoder.encode(JSON.stringify(payload)));
        if (failing > 0) logger.info(`Publishing ${what} on NATS again; ${failing} were not published.`);
        failing = 0;
      } catch (err) {
        if (failing === 0) {
          logger.warn(`One of the ${what} was not published on ${subject} (later failures are counted, not logged)`, {
            error: err instanceof Error ? err.message : String(err),
          });
        }
        failing += 1;
      }
    },
  };
}
