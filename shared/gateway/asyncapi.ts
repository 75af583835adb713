/**
 * Generates the AsyncAPI 3.0 document of the events published on plain NATS from the one definition of each part of
 * the contract, as openapi.ts does for the routes: the indexer's chain events (shared/records/published-events.ts)
 * and the public event log's types (shared/events/event-types.ts). A channel per subject under the deployment's
 * NAMESPACE, the publisher's `send` operation on it, and the message with its payload schema (and, for the chain
 * events, an example). Served at `GET /api/v1/asyncapi.json`; what an outside service may rely on is in
 * docs/nats-contract.md.
 */
import { EVENT_TYPES, eventSchema, type EventType } from "../events/event-types";
import { eventLogSubject, OBSERVER_NATS_USER, PUBLISHED_EVENTS, publishedSubject } from "../records/published-events";

export interface AsyncApiOptions {
  title: string;
  version: string;
  /** NAMESPACE: the first token of every subject */
  namespace: string;
}

type Json = Record<string, unknown>;

const DESCRIPTION = [
  "The events published on core NATS as plain JSON (no Moleculer envelope) when the service runs in scale mode",
  "(TRANSPORTER set); an embedded instance publishes nothing. The indexer publishes the chain's blocks and rollbacks",
  "on `<namespace>.chain.block` and `<namespace>.chain.rollback`; the events service publishes every event of the public",
  "event log (docs/events.md) on `<namespace>.events.<type>` right after storing it, the same JSON the SSE stream and",
  "webhooks carry. Delivery is at most once: a subscriber that is disconnected, slow beyond its pending limits, or not",
  "yet subscribed misses messages, and nothing is replayed on NATS. Order: the indexer publishes on one connection in",
  "chain order, so a subscription to `<namespace>.chain.>` receives blocks and rollbacks in the order they happened;",
  "the event log's events come in id order from one events service replica, and a missing id says one was missed.",
  "To catch up: re-read the chain from the last block point (`slot`, `id`) you hold, or resume the event log after the",
  "last event id you hold (SSE `Last-Event-ID`, a webhook replay); see docs/nats-contract.md. Payloads may gain",
  "fields: ignore those you do not know.",
].join(" ");

/** `certificate.anchored` → `CertificateAnchored`: the event type's name in the document's keys. */
const pascal = (type: EventType): string =>
  type
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("");

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
  for (const type of EVENT_TYPES) {
    const name = `${pascal(type)}Event`;
    const key = `event${pascal(type)}`;
    channels[key] = {
      address: eventLogSubject(opts.namespace, type),
      title: `events.${type}`,
      description: `Each \`${type}\` event of the public event log (docs/events.md#event-types), published by the events service right after it stored it.`,
      messages: { [key]: { $ref: `#/components/messages/${name}` } },
    };
    operations[`send${name}`] = {
      action: "send",
      channel: { $ref: `#/channels/${key}` },
      summary: `The events service stored a ${type} event`,
      messages: [{ $ref: `#/channels/${key}/messages/${key}` }],
    };
    messages[name] = {
      name,
      title: type,
      summary: `A ${type} event, as SSE and webhooks carry it`,
      contentType: "application/json",
      payload: { $ref: `#/components/schemas/${name}` },
    };
    schemas[name] = eventSchema(type);
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
