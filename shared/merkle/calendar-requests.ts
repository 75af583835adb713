/**
 * A submission to the aggregated calendar as it is kept and answered: one store document per request, its hashes and
 * nonces packed (so a request costs one write, whatever its size) until the log holds them all; a receipt per
 * position, whose id is the request's id followed by the position; where the log put each position; and the answers
 * a caller reads.
 */
import { randomBytes } from "node:crypto";
import { badRequest } from "../domain/errors";
import type { StoredDocument } from "../store";
import { hashListAnswer, parseHashList, type HashListWords } from "./hash-list";

/** One submission (`_id`: the request id). */
export interface CalendarRequestDocument extends StoredDocument {
  _id: string;
  /** the submitted hashes, in order, packed, hex; dropped once the log holds them all (its records keep them) */
  hashes?: string;
  count: number;
  submittedAt: number;
  /** the hashes that count against the limits: all of them until an anchoring round takes a checkpoint holding them */
  pendingLeaves: number;
  /** who submitted (calendarClientOf): its pending leaves count against its own quota */
  client?: string;
  /**
   * one fresh 16-byte nonce per hash, packed, base64: the log's entry of a hash is SHA-256(nonce ‖ hash); dropped with
   * `hashes`
   */
  nonces?: string;
  /** the next position the transparency log has not taken; positions before it are in `logged` */
  logNext: number;
  /** positions not in the log yet (count − logNext), for the sequencer's query */
  logPending: number;
  /** positions [from, to) that are the log's indices index… */
  logged: { from: number; to: number; index: number }[];
  /** once the log holds every position: the index after the last one */
  logEnd?: number;
}

/** The collection of the calendar's requests (one document per `/batch/submit`). */
export const CALENDAR_REQUESTS = "merkle_calendar_requests";

/** A request id: 12 random bytes, hex; a receipt id adds the position as 8 hex digits. */
const REQUEST_ID_HEX = 24;
const RECEIPT_ID = /^[0-9a-f]{32}$/;

export const newRequestId = (): string => randomBytes(REQUEST_ID_HEX / 2).toString("hex");

export const receiptIdOf = (request: string, position: number): string => `${request}${position.toString(16).padStart(8, "0")}`;

/** The request and position a receipt id names, or undefined for a malformed id. */
export function findReceiptPosition(receiptId: string): { request: string; position: number } | undefined {
  if (!RECEIPT_ID.test(receiptId)) return undefined;
  return { request: receiptId.slice(0, REQUEST_ID_HEX), position: parseInt(receiptId.slice(REQUEST_ID_HEX), 16) };
}

/** The hash at `position` of a request not yet wholly in the log, hex. */
export function hashAt(doc: Pick<CalendarRequestDocument, "hashes">, position: number): string {
  if (doc.hashes === undefined) throw new Error("The request's hashes are in the log now: read them from its records.");
  return doc.hashes.slice(position * 64, position * 64 + 64);
}

/** How the calendar words the problems of a request's hashes (400 BAD_REQUEST). */
const CALENDAR_WORDS: HashListWords = {
  empty: "hashes is empty: send at least one 32-byte hash",
  tooMany: (count, maxHashes) => `One request takes at most ${maxHashes} hashes (got ${count}); send the rest in further requests.`,
};

/** A request's hashes, packed. @throws DomainError BAD_REQUEST naming the problem (and `maxHashes` for too many) */
export function parseCalendarHashes(raw: unknown, maxHashes: number): Buffer {
  const parsed = parseHashList(raw, { maxHashes, acceptBytes: false });
  if (!parsed.problem) return parsed.packed;
  const { message, data } = hashListAnswer(parsed.problem, CALENDAR_WORDS);
  return badRequest(message, data);
}

export interface CalendarReceipt {
  receiptId: string;
  hash: string;
  /**
   * pending: waiting for an anchoring round; submitted: a round's transaction anchoring a checkpoint that holds it is
   * sent; anchored: that transaction is on chain and its proof is served
   */
  status: "pending" | "submitted" | "anchored";
  submittedAt: number;
  /** while pending: when the next round is due (Unix ms) */
  expectedAnchorBy?: number;
  /** this receipt's status route, relative to the API base */
  statusUrl: string;
  /** the anchored checkpoint's root */
  merkleRoot?: string;
  transactionHash?: string;
  /** once anchored: where the inclusion proof is served, relative to the API base */
  proofUrl?: string;
}

/**
 * The answer to a submission: what all its receipts share once, then per hash only its receipt id (kept small: at
 * 5,000 hashes about 0.6 MB, well inside the 1 MB a NATS message carries by default).
 */
export interface SubmitAnswer {
  status: "pending";
  submittedAt: number;
  /** when the next round is due (Unix ms) */
  expectedAnchorBy: number;
  /** each receipt's status route, relative to the API base */
  receiptUrl: "/api/v1/batch/receipt/{receiptId}";
  /** one per submitted hash, in order */
  receipts: { receiptId: string; hash: string }[];
  /** leaves waiting in total, these included */
  pending: number;
}
