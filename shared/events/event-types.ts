/**
 * The public events (docs/events.md): their types, the data each carries, and the subjects clients filter on. One
 * definition for the log, its producers, the Server-Sent Events stream and the docs. Plain JSON, so an event crosses
 * NATS and HTTP unchanged.
 */

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

/** A block of the chain, as an event names it. */
export interface BlockRef {
  slot: number;
  id: string;
  height: number;
}

/** Positions [from, to) of a calendar request: its receipts `receiptIdOf(requestId, position)`. */
export interface RequestPositions {
  from: number;
  to: number;
}

/** What each event type carries in `data`. */
export interface EventData {
  /** The submitter handed the transaction to the node. */
  "transaction.submitted": {
    transactionHash: string;
    /** Unix ms its inputs stay locked until, when tracked */ inFlightUntil: number | null;
  };
  /**
   * The transaction is in the chain, `depth` blocks deep (1: in the tip); sent again at each later block the events
   * service sees until `depth` reaches EVENTS_FINALITY_DEPTH, whose event says `final: true`.
   */
  "transaction.confirmed": { transactionHash: string; depth: number; final: boolean; includedIn: BlockRef };
  /** A rollback took the transaction out of the chain; `block` is the point the chain went back to. */
  "transaction.rolled_back": { transactionHash: string; includedIn: BlockRef; /** the depth it had reached */ depth: number };
  /** A certificate in a confirmed transaction (the fields of a `/verify` record). */
  "certificate.anchored": {
    hash: string;
    algorithm: string;
    /** the issuer's payment key hash */
    issuer: string;
    /** the issuer's enterprise address */
    address: string;
    transactionHash: string;
    /** its position in the transaction's certificate list */
    position: number;
    metadata: string;
    bootstrapTokenName: string | null;
    stateId: string | null;
  };
  "certificate.rolled_back": { hash: string; transactionHash: string; position: number; includedIn: BlockRef };
  /** A user state was burned: it anchors nothing more. */
  "state.invalidated": { stateId: string; transactionHash: string };
  /** The transparency log took these positions of a calendar request, in the signed checkpoint of `checkpointSize`. */
  "receipt.checkpointed": {
    requestId: string;
    positions: RequestPositions;
    /** the log index of position `positions.from` (the others follow it) */
    firstIndex: number;
    checkpointSize: number;
    /** the root of that checkpoint, hex */
    checkpointRoot: string;
  };
  /** A transaction anchoring a checkpoint that holds these positions is in a block (`block`). */
  "receipt.anchored": {
    requestId: string;
    positions: RequestPositions;
    firstIndex: number;
    /** the anchored checkpoint: its size and root, hex */
    checkpointSize: number;
    checkpointRoot: string;
    transactionHash: string;
  };
  /**
   * A list extension built a transaction again because another took its list entry: sign and submit
   * `unsignedTransaction` instead of the one with `previousTransactionHash`.
   */
  "extension.rebuilt": {
    /** the extension's service */
    extension: string;
    policyId: string;
    previousTransactionHash: string;
    transactionHash: string;
    unsignedTransaction: string;
  };
  /**
   * The webhook engine disabled an endpoint (docs/webhooks.md#retries-dead-letters-disabling): `reason`
   * `FAILED_DELIVERIES` after that many deliveries in a row ended dead, `GONE` when it answered 410. Its owner enables
   * it again (`POST /webhooks/{id}/enable`). Neither its URL nor its owner is named: the log is public.
   */
  "endpoint.disabled": { endpointId: string; reason: "FAILED_DELIVERIES" | "GONE"; consecutiveFailures: number };
}

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
