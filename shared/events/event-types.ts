/**
 * The public events (docs/events.md): their types, the data each carries, and the subjects clients filter on. One
 * definition for the log, its producers, the Server-Sent Events stream and the docs. Plain JSON, so an event crosses
 * NATS and HTTP unchanged.
 */
import {
  field,
  nullable,
  objectField,
  objectSchema,
  type Field,
  type Fields,
  type JsonSchema,
  type PayloadOf,
} from "../records/json-schema-fields";

/** Every event type, in the order docs/events.md presents them. */
export const EVENT_TYPES = [
  "transaction.submitted",
  "transaction.confirmed",
  "transaction.rolled_back",
  "certificate.anchored",
  "certificate.rolled_back",
  "state.invalidated",
  "receipt.checkpointed",
  "receipt.anchored",
  "extension.rebuilt",
  "endpoint.disabled",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

const hash32 = (description: string): Field<string> => field({ type: "string", pattern: "^[0-9a-f]{64}$", description });
const count = (description: string, minimum = 0): Field<number> => field({ type: "integer", minimum, description });
const text = (description: string): Field<string> => field({ type: "string", description });
const hexText = (description: string): Field<string> => field({ type: "string", pattern: "^[0-9a-fA-F]*$", description });

const BLOCK_REF_FIELDS = {
  slot: count("the block's slot"),
  id: hash32("the block's id (header hash)"),
  height: count("the block's height (block number)"),
};
/** A block of the chain, as an event names it. */
export type BlockRef = PayloadOf<typeof BLOCK_REF_FIELDS>;
const blockRef = (description: string): Field<BlockRef> => objectField(BLOCK_REF_FIELDS, description);

const POSITIONS_FIELDS = { from: count("the first position"), to: count("one past the last position") };
/** Positions [from, to) of a calendar request: its receipts `receiptIdOf(requestId, position)`. */
export type RequestPositions = PayloadOf<typeof POSITIONS_FIELDS>;

const TRANSACTION = hash32("the transaction's id");
const CERTIFICATE_HASH = hexText("the certificate's data hash, hex");
const POSITION = count("the certificate's position in its transaction's certificate list");
const INCLUDED_IN = blockRef("the block the transaction was in");
const REQUEST = field<string>({
  type: "string",
  pattern: "^[0-9a-f]{24}$",
  description: "the calendar request: the 24 hex digits its receipt ids start with",
});
const CHECKPOINT_ROOT = hexText("the root of that checkpoint, hex");

/**
 * What each event type carries in `data`: one field list per type, from which come both the TypeScript type
 * (`EventData`) and the JSON Schema the AsyncAPI document serves (`eventSchema`).
 */
const EVENT_DATA_FIELDS = {
  /** The submitter (or the service itself, for its own transactions) handed the transaction to the node. */
  "transaction.submitted": {
    transactionHash: TRANSACTION,
    inFlightUntil: nullable(count("Unix ms its inputs stay locked until, when tracked")),
  },
  /**
   * The transaction is in the chain, `depth` blocks deep (1: in the tip); sent again at each later block the events
   * service sees until `depth` reaches EVENTS_FINALITY_DEPTH, whose event says `final: true`.
   */
  "transaction.confirmed": {
    transactionHash: TRANSACTION,
    depth: count("how deep the transaction is (1: in the tip)", 1),
    final: field<boolean>({ type: "boolean", description: "true on the last confirmation (depth EVENTS_FINALITY_DEPTH)" }),
    includedIn: INCLUDED_IN,
  },
  /** A rollback took the transaction out of the chain; `block` is the point the chain went back to. */
  "transaction.rolled_back": {
    transactionHash: TRANSACTION,
    includedIn: INCLUDED_IN,
    depth: count("the depth it had reached", 1),
  },
  /** A certificate in a confirmed transaction (the fields of a `/verify` record). */
  "certificate.anchored": {
    hash: CERTIFICATE_HASH,
    algorithm: text("the hash algorithm (or scheme) the certificate names"),
    issuer: text("the issuer's payment key hash, hex"),
    address: text("the issuer's enterprise address (bech32); empty when the key hash is none"),
    transactionHash: TRANSACTION,
    position: POSITION,
    metadata: text("the certificate's metadata, as issued"),
    bootstrapTokenName: nullable(text("the bootstrap the certificate was issued under")),
    stateId: nullable(text("the user state the certificate was issued from")),
  },
  "certificate.rolled_back": {
    hash: CERTIFICATE_HASH,
    transactionHash: TRANSACTION,
    position: POSITION,
    includedIn: INCLUDED_IN,
  },
  /** A user state was burned: it anchors nothing more. */
  "state.invalidated": { stateId: hash32("the user state's id"), transactionHash: TRANSACTION },
  /** The transparency log took these positions of a calendar request, in the signed checkpoint of `checkpointSize`. */
  "receipt.checkpointed": {
    requestId: REQUEST,
    positions: objectField(POSITIONS_FIELDS, "the request's positions [from, to): receipts from … to − 1"),
    firstIndex: count("the log index of position `positions.from` (the others follow it)"),
    checkpointSize: count("the size of the signed checkpoint that holds them"),
    checkpointRoot: CHECKPOINT_ROOT,
  },
  /** A transaction anchoring a checkpoint that holds these positions is in a block (`block`). */
  "receipt.anchored": {
    requestId: REQUEST,
    positions: objectField(POSITIONS_FIELDS, "the request's positions [from, to): receipts from … to − 1"),
    firstIndex: count("the log index of position `positions.from`"),
    checkpointSize: count("the size of the anchored checkpoint"),
    checkpointRoot: hexText("the root of the anchored checkpoint, hex"),
    transactionHash: TRANSACTION,
  },
  /**
   * A list extension built a transaction again because another took its list entry: sign and submit
   * `unsignedTransaction` instead of the one with `previousTransactionHash`.
   */
  "extension.rebuilt": {
    extension: text("the extension's service"),
    policyId: field<string>({ type: "string", pattern: "^[0-9a-f]{56}$", description: "the list's policy id" }),
    previousTransactionHash: hash32("the transaction it replaces"),
    transactionHash: hash32("the rebuilt transaction's id"),
    unsignedTransaction: hexText("the rebuilt transaction, unsigned CBOR hex: sign and submit it"),
  },
  /**
   * The webhook engine disabled an endpoint (docs/webhooks.md#retries-dead-letters-disabling): `reason`
   * `FAILED_DELIVERIES` after that many deliveries in a row ended dead, `GONE` when it answered 410. Its owner enables
   * it again (`POST /webhooks/{id}/enable`). Neither its URL nor its owner is named: the log is public.
   */
  "endpoint.disabled": {
    endpointId: field<string>({ type: "string", pattern: "^ep_[0-9a-f]{32}$", description: "the webhook endpoint's id" }),
    reason: field<"FAILED_DELIVERIES" | "GONE">({
      type: "string",
      enum: ["FAILED_DELIVERIES", "GONE"],
      description: "FAILED_DELIVERIES: that many deliveries in a row ended dead; GONE: it answered 410",
    }),
    consecutiveFailures: count("deliveries in a row that ended dead"),
  },
} satisfies Record<EventType, Fields>;

/** What each event type carries in `data`. */
export type EventData = { [T in EventType]: PayloadOf<(typeof EVENT_DATA_FIELDS)[T]> };

/** An event as the log serves it. */
export interface PublicEvent<T extends EventType = EventType> {
  /** decimal sequence number, strictly increasing in the log */
  id: string;
  type: T;
  /** ISO 8601: the block's time for chain events, else when it happened */
  timestamp: string;
  /** the block the event came from (the chain's tip when it happened); null for events of no block */
  block: BlockRef | null;
  /** the filter keys (`SUBJECT_KINDS`) */
  subjects: string[];
  data: EventData[T];
}

/**
 * An event to append: its producer's `key`, the same whenever it derives the same event again (a producer that died
 * mid-batch appends again, and the log keeps the first).
 */
export type NewEvent<T extends EventType = EventType> = Omit<PublicEvent<T>, "id"> & { key: string };

/** The kinds of subject and what each names, with the one pattern of each (lowercase hex, lowercase bech32). */
export const SUBJECT_KINDS = {
  /** a bech32 payment address: an issuer */
  address: /^addr(?:_test)?1[02-9ac-hj-np-z]{20,200}$/,
  /** a certificate's data hash, 1 to 64 bytes */
  hash: /^(?:[0-9a-f]{2}){1,64}$/,
  /** a transaction id */
  transaction: /^[0-9a-f]{64}$/,
  /** a calendar request: the first 24 hex digits of its receipt ids */
  request: /^[0-9a-f]{24}$/,
  /** a list extension's list, by policy id */
  list: /^[0-9a-f]{56}$/,
  /** a user state, by id */
  state: /^[0-9a-f]{64}$/,
  /** a webhook endpoint, by id (docs/webhooks.md) */
  endpoint: /^ep_[0-9a-f]{32}$/,
} as const;

export type SubjectKind = keyof typeof SUBJECT_KINDS;

/** `kind:value`, the way events carry it (lowercase, as `parseSubject` reads a client's). */
export const subject = (kind: SubjectKind, value: string): string => `${kind}:${value.toLowerCase()}`;

/**
 * A subject as a client wrote it, in the form events carry (lowercased), or why it is none.
 * Hex and bech32 are compared lowercase: `hash:ABCD` and `hash:abcd` name one thing.
 */
export function parseSubject(raw: string): { ok: true; subject: string } | { ok: false; problem: string } {
  const colon = raw.indexOf(":");
  const kind = colon < 0 ? "" : raw.slice(0, colon);
  if (!(kind in SUBJECT_KINDS))
    return {
      ok: false,
      problem: `subject ${JSON.stringify(raw.slice(0, 80))} is not <kind>:<value> with kind one of ${Object.keys(SUBJECT_KINDS).join(", ")}`,
    };
  const value = raw.slice(colon + 1).toLowerCase();
  if (!SUBJECT_KINDS[kind as SubjectKind].test(value))
    return { ok: false, problem: `subject ${JSON.stringify(raw.slice(0, 80))}: ${describeKind(kind as SubjectKind)}` };
  return { ok: true, subject: `${kind}:${value}` };
}

function describeKind(kind: SubjectKind): string {
  switch (kind) {
    case "address":
      return "an address subject is a bech32 payment address (addr1… or addr_test1…)";
    case "hash":
      return "a hash subject is 2 to 128 hex digits (1 to 64 bytes)";
    case "transaction":
      return "a transaction subject is 64 hex digits";
    case "request":
      return "a request subject is the 24 hex digits a calendar request's receipt ids start with";
    case "list":
      return "a list subject is a 56-hex-digit policy id";
    case "state":
      return "a state subject is a 64-hex-digit state id";
    case "endpoint":
      return "an endpoint subject is a webhook endpoint id (ep_ and 32 hex digits)";
  }
}

export const isEventType = (value: string): value is EventType => (EVENT_TYPES as readonly string[]).includes(value);

/** An event id as a client sends it (`Last-Event-ID`, `after`): a decimal sequence number, 0 for "from the start". */
export const EVENT_ID = /^(?:0|[1-9][0-9]{0,15})$/;

/** The pattern of every subject, from SUBJECT_KINDS: `<kind>:<value>`. */
const SUBJECT_PATTERN = `^(?:${Object.entries(SUBJECT_KINDS)
  .map(([kind, re]) => `${kind}:(?:${re.source.replace(/^\^/, "").replace(/\$$/, "")})`)
  .join("|")})$`;

/**
 * The JSON Schema of a whole event of `type`, as the log serves it (SSE, webhooks, NATS): the envelope of
 * `PublicEvent` around the type's `data`. Readers ignore fields they do not know.
 */
export function eventSchema(type: EventType): JsonSchema {
  const envelope = {
    id: field<string>({ type: "string", pattern: "^[1-9][0-9]*$", description: "decimal sequence number, strictly increasing in the log" }),
    type: field<EventType>({ type: "string", const: type, description: "the event's type" }),
    timestamp: text("ISO 8601: the block's time for an event of a block, else when it happened"),
    block: nullable(blockRef("the block the event came from (the chain's tip when it happened)")),
    subjects: field<string[]>({
      type: "array",
      items: { type: "string", pattern: SUBJECT_PATTERN },
      description: "the filter keys the event names, `<kind>:<value>`",
    }),
    data: objectField(EVENT_DATA_FIELDS[type], `what a ${type} event carries`),
  };
  return objectSchema(envelope, { title: type });
}
