/**
 * Reading the webhook routes' parameters (docs/webhooks.md#the-routes), once, where they enter: every problem is a
 * WebhookError whose message starts with the field it is about (`data.field` names it too), so a 400 says what to
 * fix. Subjects and event types are read as the event log writes them (shared/events/event-types.ts): a subject in
 * any letter case comes out canonical, an unknown event type is refused rather than never matched.
 */
import { isEventType, parseSubject, type EventType } from "../events/event-types";
import type { AddressProof } from "./address-proof";
import { webhookError } from "./errors";
import { isEventId } from "./event-source";

export type Params = Readonly<Record<string, unknown>>;

export interface RegistrationRequest {
  url: string;
  /** Canonical, without duplicates. */
  subjects: string[];
  types: EventType[];
  description?: string;
  addressProofs: AddressProof[];
}

export interface ChallengeRequest {
  address: string;
  url: string;
}

export interface DeadLetterQuery {
  after?: string;
  limit: number;
}

export const MAX_DESCRIPTION_LENGTH = 256;
const ENDPOINT_ID = /^ep_[0-9a-f]{32}$/;
const DELIVERY_ID = /^ep_[0-9a-f]{32}:(0|[1-9][0-9]{0,19})(:replay-[0-9]{1,9})?$/;
const HEX = /^[0-9a-fA-F]+$/;
const DEFAULT_DEAD_LETTER_PAGE = 50;

const invalid = (field: string, message: string): never => webhookError("INVALID_WEBHOOK_REQUEST", `${field}: ${message}`, { field });

/** Refuses a parameter the route does not know (a misspelt field would otherwise be ignored silently). */
function onlyFields(params: Params, allowed: readonly string[]): void {
  for (const name of Object.keys(params))
    if (!allowed.includes(name))
      invalid(name.slice(0, 60), `unknown parameter; this route takes ${allowed.filter((a) => a !== "id").join(", ") || "none"}.`);
}

/** A string field; `label` is how messages name it (a proof's fields: `addressProofs[0].address`). */
function text(
  params: Params,
  field: string,
  max: number,
  opts: { required: boolean; pattern?: RegExp; what?: string },
  label = field,
): string | undefined {
  const v = params[field];
  if (v === undefined || v === null) return opts.required ? invalid(label, "is required.") : undefined;
  if (typeof v !== "string" || v.length === 0) return invalid(label, "must be a non-empty string.");
  if (v.length > max) return invalid(label, `must be at most ${max} characters.`);
  if (opts.pattern && !opts.pattern.test(v)) return invalid(label, `must be ${opts.what ?? "valid"}.`);
  return v;
}

function list(params: Params, field: string, min: number, max: number): unknown[] {
  const v = params[field];
  if (v === undefined || v === null) return min > 0 ? invalid(field, "is required.") : [];
  if (!Array.isArray(v)) return invalid(field, "must be a list.");
  if (v.length < min || v.length > max) return invalid(field, `must hold ${min} to ${max} entries (got ${v.length}).`);
  return v;
}

/** The subjects, canonical and without duplicates. @throws WebhookError `INVALID_WEBHOOK_FILTER` */
function subjectsOf(params: Params, max: number): string[] {
  const out = new Set<string>();
  for (const raw of list(params, "subjects", 1, max)) {
    const parsed = typeof raw === "string" ? parseSubject(raw) : { ok: false as const, problem: "a subject is a string" };
    if (!parsed.ok) webhookError("INVALID_WEBHOOK_FILTER", `subjects: ${parsed.problem}.`, { field: "subjects" });
    out.add(parsed.subject);
  }
  return [...out];
}

/** @throws WebhookError `INVALID_WEBHOOK_FILTER` */
function typesOf(params: Params, max: number): EventType[] {
  const out = new Set<EventType>();
  for (const raw of list(params, "types", 0, max)) {
    if (typeof raw !== "string" || !isEventType(raw))
      webhookError(
        "INVALID_WEBHOOK_FILTER",
        `types: ${JSON.stringify(typeof raw === "string" ? raw.slice(0, 80) : raw)} is not an event type (docs/events.md#event-types).`,
        {
          field: "types",
        },
      );
    out.add(raw);
  }
  return [...out];
}

function proofOf(raw: unknown, i: number): AddressProof {
  const at = `addressProofs[${i}]`;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return invalid(at, "must be an object.");
  const p = raw as Params;
  const field = (name: string, max: number, pattern?: RegExp, what = "hex") =>
    text(p, name, max, { required: true, ...(pattern ? { pattern, what } : {}) }, `${at}.${name}`)!;
  const address = field("address", 200, /^[a-z0-9_]+$/, "a bech32 address");
  const timestamp = p["timestamp"];
  if (typeof timestamp !== "number" || !Number.isSafeInteger(timestamp) || timestamp < 0)
    return invalid(`${at}.timestamp`, "must be the challenge's timestamp (a JSON number, Unix ms).");
  return {
    address,
    timestamp,
    message: field("message", 1000),
    signature: field("signature", 200, HEX),
    userSignature: field("userSignature", 4000, HEX, "hex (COSE_Sign1)"),
    userPublicKey: field("userPublicKey", 1000, HEX, "hex (COSE_Key)"),
  };
}

/** `POST /webhooks`. */
export function parseRegistration(params: Params, bounds: { maxSubjects: number; maxTypes: number }): RegistrationRequest {
  onlyFields(params, ["url", "subjects", "types", "description", "addressProofs"]);
  const url = text(params, "url", 2_048, { required: true })!;
  const subjects = subjectsOf(params, bounds.maxSubjects);
  const types = typesOf(params, bounds.maxTypes);
  const description = text(params, "description", MAX_DESCRIPTION_LENGTH, { required: false });
  const addressProofs = list(params, "addressProofs", 0, bounds.maxSubjects).map(proofOf);
  return { url, subjects, types, ...(description !== undefined ? { description } : {}), addressProofs };
}

/** `POST /webhooks/challenge`. */
export function parseChallengeRequest(params: Params): ChallengeRequest {
  onlyFields(params, ["address", "url"]);
  return {
    address: text(params, "address", 200, { required: true, pattern: /^[a-z0-9_]+$/, what: "a bech32 address" })!,
    url: text(params, "url", 2_048, { required: true })!,
  };
}

/**
 * The endpoint id of a path; a malformed one names no endpoint.
 * @throws WebhookError `WEBHOOK_ENDPOINT_NOT_FOUND`
 */
export function endpointIdOf(params: Params): string {
  const id = params["id"];
  if (typeof id !== "string" || !ENDPOINT_ID.test(id))
    webhookError("WEBHOOK_ENDPOINT_NOT_FOUND", "No such webhook endpoint (an id is ep_ and 32 hex digits).", {
      id: typeof id === "string" ? id.slice(0, 80) : null,
    });
  return id;
}

/** `GET /webhooks`: no parameters. */
export function parseList(params: Params): void {
  onlyFields(params, []);
}

/** A route on one endpoint that takes no body. */
export function parseNoBody(params: Params): string {
  onlyFields(params, ["id"]);
  return endpointIdOf(params);
}

/** `GET /webhooks/{id}/dead-letters?after=&limit=`. */
export function parseDeadLetterQuery(params: Params, maxLimit: number): { id: string } & DeadLetterQuery {
  onlyFields(params, ["id", "after", "limit"]);
  const id = endpointIdOf(params);
  const after = text(params, "after", 100, { required: false, pattern: DELIVERY_ID, what: "the `next` of the previous page" });
  const rawLimit = params["limit"];
  let limit = DEFAULT_DEAD_LETTER_PAGE;
  if (rawLimit !== undefined) {
    limit =
      typeof rawLimit === "number" ? rawLimit : typeof rawLimit === "string" && /^[0-9]{1,6}$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > maxLimit) invalid("limit", `must be an integer from 1 to ${maxLimit}.`);
  }
  return { id, ...(after !== undefined ? { after } : {}), limit: Math.min(limit, maxLimit) };
}

/** `POST /webhooks/{id}/replay { fromEventId }`: the id as a decimal string (a JSON number is taken too). */
export function parseReplay(params: Params): { id: string; fromEventId: string } {
  onlyFields(params, ["id", "fromEventId"]);
  const id = endpointIdOf(params);
  const raw = params["fromEventId"];
  if (raw === undefined || raw === null) return invalid("fromEventId", "is required: the event id to replay from (docs/events.md).");
  const fromEventId = typeof raw === "number" && Number.isSafeInteger(raw) && raw >= 0 ? String(raw) : raw;
  if (!isEventId(fromEventId)) return invalid("fromEventId", "must be a decimal event id (0 for the first event on).");
  return { id, fromEventId };
}
