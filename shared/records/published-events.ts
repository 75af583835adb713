/**
 * The published NATS contract: the chain events an outside service may subscribe to, with plain NATS and no
 * Moleculer (docs/nats-contract.md). Each event is defined once here: its subject under the deployment's NAMESPACE,
 * the JSON Schema of its payload and, from the same field list, the TypeScript type of that payload. The indexer's
 * `chain.block` / `chain.rollback` notifications are typed with these (shared/indexer/builtin-plugins.ts, indexer.ts),
 * the indexer service publishes them on their subjects (shared/mesh/chain-event-publisher.ts), and the gateway serves
 * the AsyncAPI document generated from them (shared/gateway/asyncapi.ts, `GET /api/v1/asyncapi.json`).
 *
 * A payload is the plain JSON object, nothing around it (no Moleculer packet, no headers). Moleculer's own subjects
 * (`MOL-<NAMESPACE>.…`) and every action stay internal.
 */
import { LOWER_HEX_PATTERNS } from "../domain/hex";
import { field, objectSchema, type Field, type JsonSchema, type PayloadOf } from "./json-schema-fields";

export type { Field, JsonSchema, PayloadOf } from "./json-schema-fields";

const integer = (description: string, minimum: number): Field<number> => field({ type: "integer", minimum, description });
const hash32 = (description: string): Field<string> => field({ type: "string", pattern: LOWER_HEX_PATTERNS.hash32.source, description });

/** One published event: its name (the subject after the namespace, and the Moleculer event's name inside). */
export interface PublishedEvent<E extends string, F extends Record<string, Field<unknown>>> {
  readonly event: E;
  /** its key in the AsyncAPI document: the channel's, the operation's and the message's */
  readonly key: string;
  readonly title: string;
  readonly summary: string;
  readonly description: string;
  readonly fields: F;
  /** The payload's schema: an object with every field required (new fields may be added: ignore those you do not know). */
  readonly schema: JsonSchema;
  readonly example: PayloadOf<F>;
}

function publishedEvent<E extends string, F extends Record<string, Field<unknown>>>(
  spec: Omit<PublishedEvent<E, F>, "schema">,
): PublishedEvent<E, F> {
  const schema = objectSchema(spec.fields, { title: spec.title });
  return { ...spec, schema };
}

const LAST_SEQ =
  "the fact log's newest sequence number when the event was sent (the indexer's log: every fact of this block, or " +
  "the rollback's marker, is at or below it; blocks written together while catching up share one value). Never " +
  "decreases; it moves only when facts or rollback markers are written, so equal values do not mean no block was missed";

const CHAIN_BLOCK_FIELDS = {
  slot: integer("the block's slot", 0),
  height: integer("the block's height (block number)", 0),
  id: hash32("the block's id (header hash): with `slot`, the point to resume a chain-sync from"),
  time: integer("the block's time, Unix milliseconds (from its slot)", 0),
  transactionIds: field<string[]>({
    type: "array",
    items: { type: "string", pattern: LOWER_HEX_PATTERNS.hash32.source },
    description: "the ids of every transaction in the block, in block order (invalid ones included: they spent their collateral)",
  }),
  lastSeq: integer(LAST_SEQ, 0),
};

const CHAIN_ROLLBACK_FIELDS = {
  slot: integer("the slot of the point the chain rolled back to; -1 for the origin (before the first block)", -1),
  id: field<string>({
    description: 'the id of the block the chain rolled back to (it stays on the chain), or "origin"',
    anyOf: [
      { type: "string", pattern: LOWER_HEX_PATTERNS.hash32.source },
      { type: "string", const: "origin" },
    ],
  }),
  lastSeq: integer(LAST_SEQ, 0),
};

export const CHAIN_BLOCK = publishedEvent({
  event: "chain.block",
  key: "chainBlock",
  title: "ChainBlock",
  summary: "The indexer recorded a block",
  description:
    "Sent once per block the indexer has written to its fact log, in chain order. A block that follows a rollback has " +
    "the height after the rollback point's, not after the last block sent before it.",
  fields: CHAIN_BLOCK_FIELDS,
  example: {
    slot: 4_492_800,
    height: 211_437,
    id: "5a6c3d3ad1c0e1b6e2a7f1f1d6dbbd6c37bd3d4a1a5f2b2e6c4b9f4b5d3f2a1e",
    time: 1_771_000_000_000,
    transactionIds: ["9f2d7fb2a0c7e54f1c1bd5d8f8b4ab6a5c3e7de1b0b2a9d8c7e6f5a4b3c2d1e0"],
    lastSeq: 1_024,
  },
});

export const CHAIN_ROLLBACK = publishedEvent({
  event: "chain.rollback",
  key: "chainRollback",
  title: "ChainRollback",
  summary: "The chain rolled back to a point: every block after it is gone",
  description:
    "Sent when the indexer has undone everything after the point. Each time the indexer (re)connects to the chain it " +
    "first announces a rollback to the point it resumes from: a rollback to a block you already have loses nothing.",
  fields: CHAIN_ROLLBACK_FIELDS,
  example: { slot: 4_492_780, id: "0c1d2e3f405162738495a6b7c8d9eaf00112233445566778899aabbccddeeff0", lastSeq: 1_025 },
});

/** Every event published on plain NATS, in the order the AsyncAPI document lists them. */
export const PUBLISHED_EVENTS = [CHAIN_BLOCK, CHAIN_ROLLBACK] as const;

export type ChainBlockEvent = PayloadOf<typeof CHAIN_BLOCK_FIELDS>;
export type ChainRollbackEvent = PayloadOf<typeof CHAIN_ROLLBACK_FIELDS>;
/** The payload of each published event, by name: what the indexer notifies and publishes. */
export interface ChainEventPayloads {
  "chain.block": ChainBlockEvent;
  "chain.rollback": ChainRollbackEvent;
}
export type PublishedEventName = keyof ChainEventPayloads;

export const isPublishedEvent = (event: string): event is PublishedEventName => PUBLISHED_EVENTS.some((e) => e.event === event);

/** The plain NATS subject of a published event: `<NAMESPACE>.chain.block`. */
export const publishedSubject = (namespace: string, event: PublishedEventName): string => `${namespace}.${event}`;

/** Every subject the indexer publishes (its NATS user's permission, the observer's subscription): `<NAMESPACE>.chain.>`. */
export const publishedChainSubjects = (namespace: string): string => `${namespace}.chain.>`;

/**
 * The plain NATS subject of the public event log's events of `type` (docs/events.md#event-types), which the events
 * service publishes as it stores them: `<NAMESPACE>.events.certificate.anchored`. Their payloads' schemas come from
 * shared/events/event-types.ts.
 */
export const eventLogSubject = (namespace: string, type: string): string => `${namespace}.events.${type}`;

/** Every subject the events service publishes (its NATS user's permission, the observer's subscription): `<NAMESPACE>.events.>`. */
export const publishedEventLogSubjects = (namespace: string): string => `${namespace}.events.>`;

/** The read-only NATS user of deploy/k8s/nats.yaml for outside services: may subscribe to the published subjects only (chain and event log). */
export const OBSERVER_NATS_USER = "observer";
