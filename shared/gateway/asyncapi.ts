/**
 * Generates the AsyncAPI 3.0 document of the events published on plain NATS from the one definition of the contract
 * (shared/records/published-events.ts), as openapi.ts does for the routes: a channel per subject under the
 * deployment's NAMESPACE, the indexer's `send` operation on it, and the message with its payload schema and an example.
 * Served at `GET /api/v1/asyncapi.json`; what an outside service may rely on is in docs/nats-contract.md.
 */
import { OBSERVER_NATS_USER, PUBLISHED_EVENTS, publishedSubject, reservedEventLogSubject } from "../records/published-events";

export interface AsyncApiOptions {
  title: string;
  version: string;
  /** NAMESPACE: the first token of every subject */
  namespace: string;
}

type Json = Record<string, unknown>;

const DESCRIPTION = [
  "The chain events the indexer publishes on core NATS, as plain JSON (no Moleculer envelope), when the service runs",
  "in scale mode (TRANSPORTER set); an embedded instance publishes nothing. Delivery is at most once: a subscriber that",
  "is disconnected, slow beyond its pending limits, or not yet subscribed misses messages, and nothing is replayed.",
  "Order: the indexer publishes every event on one connection in chain order, so one subscription receives the events",
  "of one subject in the order sent, and a subscription to both subjects (`<namespace>.chain.>`) receives blocks and",
  "rollbacks in the order they happened. To catch up after a gap, re-read the chain from the last block point",
  "(`slot`, `id`) you hold; see docs/nats-contract.md. Payloads may gain fields: ignore those you do not know.",
  `Reserved, not published yet: \`${reservedEventLogSubject("<namespace>", "<type>")}\` for the public event log.`,
].join(" ");

export function buildAsyncApiDocument(opts: AsyncApiOptions): Json {
  const channels: Json = {};
  const operations: Json = {};
  const messages: Json = {};
  const schemas: Json = {};
  for (const e of PUBLISHED_EVENTS) {
    channels[e.key] = {
      address: publishedSubject(opts.namespace, e.event),
      title: e.event,
      description: e.description,
      messages: { [e.key]: { $ref: `#/components/messages/${e.title}` } },
    };
    operations[`send${e.title}`] = {
      action: "send",
      channel: { $ref: `#/channels/${e.key}` },
      summary: e.summary,
      messages: [{ $ref: `#/channels/${e.key}/messages/${e.key}` }],
    };
    messages[e.title] = {
      name: e.title,
      title: e.event,
      summary: e.summary,
      contentType: "application/json",
      payload: { $ref: `#/components/schemas/${e.title}` },
      examples: [{ name: e.key, payload: e.example }],
    };
    schemas[e.title] = e.schema;
  }
  return {
    asyncapi: "3.0.0",
    info: { title: opts.title, version: opts.version, description: DESCRIPTION },
    defaultContentType: "application/json",
    servers: {
      nats: {
        host: "{natsHost}",
        protocol: "nats",
        description: `The deployment's NATS server. Outside services connect as the read-only user \`${OBSERVER_NATS_USER}\` (deploy/README.md).`,
        variables: {
          natsHost: {
            default: "nats:4222",
            description: "host:port of the deployment's NATS (deploy/k8s/nats.yaml: nats:4222 in the cluster)",
          },
        },
        security: [{ $ref: `#/components/securitySchemes/${OBSERVER_NATS_USER}` }],
      },
    },
    channels,
    operations,
    components: {
      schemas,
      messages,
      securitySchemes: {
        [OBSERVER_NATS_USER]: {
          type: "userPassword",
          description: `NATS user \`${OBSERVER_NATS_USER}\`, password from the Secret key nats-password-${OBSERVER_NATS_USER}: may subscribe to the published subjects only`,
        },
      },
    },
  };
}
