/**
 * The webhook engine's collections: the registered endpoints and the delivery queue. Every pending delivery lives
 * in the store, so deliveries survive restarts and `kill -9`; the processes hold only what is in flight.
 */
import { defineCollection, type StoredDocument, type Value } from "../store";

export type EndpointStatus = "active" | "disabled";

export interface EndpointSecret {
  /** `whsec_…`: kept in the store because signing needs it; never logged, never returned after it is first shown. */
  secret: string;
  createdAt: number;
  /** Set on a rotated-out secret: it signs alongside the new one until then. */
  expiresAt?: number;
}

export interface EndpointDocument extends StoredDocument {
  /** `ep_` + 32 hex digits (no `:`, which delivery ids use as a separator; lowercase, as the event log's subjects). */
  _id: string;
  /** Who registered it, as the authorization layer names them: the SHA-256 of its management token (management.ts). */
  owner: string;
  /** What the authorization layer recorded (management.ts): the payment key hashes its address proofs showed. */
  ownerProof?: Value;
  url: string;
  description?: string;
  /** The endpoint receives events having at least one of these subjects … */
  subjects: string[];
  /** … and one of these types (empty: any type). */
  types: string[];
  /** Current first; rotated-out ones until their `expiresAt`. */
  secrets: EndpointSecret[];
  status: EndpointStatus;
  disabledAt?: number;
  disabledReason?: string;
  /** Deliveries in a row that ended dead (failed after the last attempt); a delivered one resets it. */
  consecutiveFailures: number;
  /** The last event id enqueued for it (at registration: the log's newest id). Only later events are matched. */
  cursor?: string;
  /** Replays asked so far (numbers the replay deliveries' ids). */
  replays: number;
  createdAt: number;
  updatedAt: number;
}

export type DeliveryStatus = "pending" | "delivered" | "failed";

export interface DeliveryDocument extends StoredDocument {
  /** `<endpointId>:<eventId>`, or `<endpointId>:<eventId>:replay-<n>`: deterministic, so a re-run never duplicates. */
  _id: string;
  endpointId: string;
  eventId: string;
  /** The event id at fixed width: orders deliveries in log order. */
  eventKey: string;
  eventType: string;
  /** `webhook-id`: the event's idempotency id, the same for every attempt and replay. */
  messageId: string;
  /** The exact body sent and signed. */
  body: string;
  status: DeliveryStatus;
  /** Attempts started (counted when claimed, so an attempt cut short by a crash counts too). */
  attempts: number;
  /** When it is due; while claimed, when the claim lapses (and it falls due again for any deliverer). */
  nextAttemptAt: number;
  /** The current claim (a fresh token per claim: a deliverer whose claim lapsed cannot record its outcome). */
  claimToken?: string;
  claimedBy?: string;
  replay?: number;
  createdAt: number;
  lastAttemptAt?: number;
  lastStatus?: number;
  lastFailure?: string;
  lastMessage?: string;
  /** The first bytes of the last response body (bounded by `maxResponseBytes`). */
  lastResponse?: string;
  deliveredAt?: number;
  failedAt?: number;
}

export const ENDPOINTS = defineCollection<EndpointDocument>("webhook_endpoints", [{ fields: { owner: 1 } }, { fields: { subjects: 1 } }]);

export const DELIVERIES = defineCollection<DeliveryDocument>("webhook_deliveries", [
  // the claims' order, read from the index however many deliveries are due at once (a dispatched page shares one
  // `nextAttemptAt`): due first, then in log order, each event's deliveries across its endpoints
  { fields: { status: 1, nextAttemptAt: 1, eventKey: 1, _id: 1 } },
  { fields: { endpointId: 1, status: 1, eventKey: 1 } },
  { fields: { status: 1, deliveredAt: 1 } },
]);

/** The dispatcher's position in the event log (one document, `_id` `dispatcher`). */
export interface DispatchStateDocument extends StoredDocument {
  cursor?: string;
  updatedAt: number;
}

export const DISPATCH_STATE = defineCollection<DispatchStateDocument>("webhook_dispatch_state");
/** The dispatcher's lease (shared/store/lease-table.ts): one dispatcher at a time across replicas. */
export const DISPATCH_LEASE = "webhook_dispatch_lease";
