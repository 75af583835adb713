/**
 * c2sp.org/tlog-witness §add-checkpoint: the request body (`old <size>` line, up to 63 base64 consistency-proof
 * lines, an empty line, the signed checkpoint) and the witness's decision, pure: the HTTP status and body the spec
 * prescribes for each refusal (400, 403, 404, 409 with `text/x.tlog.size`, 422), or a v1 cosignature and the
 * state to persist. The caller persists the state atomically with the check of `old` (the spec's race).
 */
import { type Checkpoint, parseCheckpoint } from "./checkpoint";
import { cosign } from "./cosignature";
import { badArgument } from "./errors";
import { fromBase64, fromUtf8, parseDecimal, type Result, ok, fail, toBase64, equalBytes } from "./encoding";
import { type NoteVerifier, type SignerKey, openNote, splitNote } from "./note";
import { EMPTY_ROOT, HASH_SIZE, verifyConsistency } from "./rfc9162";

export const MAX_PROOF_LINES = 63;

export interface AddCheckpointRequest {
  oldSize: number;
  consistencyProof: Uint8Array[];
  /** the signed checkpoint note, verbatim */
  note: string;
  /** its body, parsed but not yet verified */
  checkpoint: Checkpoint;
}

/** The witness's record of a log: the latest checkpoint it cosigned. */
export interface WitnessedTree {
  size: number;
  rootHash: Uint8Array;
}

export type Refusal = { status: 400 | 403 | 404 | 409 | 422; contentType: string; body: string; reason: string };

export type Decision =
  { cosign: true; status: 200; contentType: string; body: string; state: WitnessedTree & { note: string } } | ({ cosign: false } & Refusal);

const TEXT = "text/plain; charset=utf-8";
const refuse = (status: Refusal["status"], reason: string): { cosign: false } & Refusal => ({
  cosign: false,
  status,
  contentType: TEXT,
  body: `${reason}\n`,
  reason,
});

export function formatAddCheckpoint(request: { oldSize: number; consistencyProof: readonly Uint8Array[]; note: string }): string {
  return `old ${request.oldSize}\n${request.consistencyProof.map((h) => `${toBase64(h)}\n`).join("")}\n${request.note}`;
}

/** Parses a request body; a refusal here is the spec's 400 Bad Request. */
export function parseAddCheckpoint(body: string | Uint8Array): Result<AddCheckpointRequest> {
  const text = typeof body === "string" ? body : fromUtf8(body);
  if (text === undefined) return fail("the body is not valid UTF-8");
  const firstEnd = text.indexOf("\n");
  const old = /^old (0|[1-9][0-9]*)$/.exec(firstEnd < 0 ? text : text.slice(0, firstEnd));
  const oldSize = old ? parseDecimal(old[1]!) : undefined;
  if (oldSize === undefined) return fail("the first line is not old <size> in decimal without leading zeros");
  const consistencyProof: Uint8Array[] = [];
  let at = firstEnd + 1;
  for (;;) {
    const end = text.indexOf("\n", at);
    if (end < 0) return fail("the body has no empty line before the checkpoint");
    const line = text.slice(at, end);
    at = end + 1;
    if (line === "") break;
    if (consistencyProof.length === MAX_PROOF_LINES) return fail(`more than ${MAX_PROOF_LINES} consistency proof lines`);
    const hash = fromBase64(line);
    if (!hash || hash.length !== HASH_SIZE) return fail(`proof line "${line}" is not base64 of a ${HASH_SIZE}-byte hash`);
    consistencyProof.push(hash);
  }
  const note = text.slice(at);
  const split = splitNote(note);
  if (!split.ok) return fail(`the checkpoint is not a signed note: ${split.error}`);
  const checkpoint = parseCheckpoint(split.value.text);
  if (!checkpoint.ok) return fail(`the checkpoint is malformed: ${checkpoint.error}`);
  return ok({ oldSize, consistencyProof, note, checkpoint: checkpoint.value });
}

/** The 400 refusal of a body parseAddCheckpoint refused. */
export function malformedRequest(error: string): { cosign: false } & Refusal {
  return refuse(400, error);
}

export interface WitnessInput {
  request: AddCheckpointRequest;
  /** the log's verifier keys for the request's origin; undefined when the witness does not know the origin */
  logKeys: readonly NoteVerifier[] | undefined;
  /** the latest checkpoint cosigned for that origin, or null if none */
  latest: WitnessedTree | null;
  /** the witness's cosigner key (type 0x04) */
  witnessKey: SignerKey;
  /** now, POSIX seconds; must not be zero */
  time: bigint;
}

/** The add-checkpoint checks in the spec's order, and a cosignature if they all pass. */
export function decideAddCheckpoint(input: WitnessInput): Decision {
  const { request, logKeys, latest, witnessKey, time } = input;
  if (time <= 0n) badArgument("a cosignature's timestamp must not be zero", { time: String(time) });
  const { oldSize, consistencyProof, note, checkpoint } = request;
  if (!logKeys) return refuse(404, `unknown log origin ${checkpoint.origin}`);
  const opened = openNote(note, logKeys);
  if (!opened.ok) return opened.problem === "malformed" ? refuse(400, opened.error) : refuse(403, opened.error);
  if (oldSize > checkpoint.size) return refuse(400, `old size ${oldSize} is above the checkpoint size ${checkpoint.size}`);
  const latestSize = latest?.size ?? 0;
  if (oldSize !== latestSize)
    return {
      cosign: false,
      status: 409,
      contentType: "text/x.tlog.size",
      body: `${latestSize}\n`,
      reason: `old size ${oldSize} is not the latest cosigned size ${latestSize}`,
    };
  if (checkpoint.size === 0 && !equalBytes(checkpoint.rootHash, EMPTY_ROOT))
    return refuse(422, "a checkpoint of size 0 must have the empty tree's root");
  if (oldSize === 0) {
    if (consistencyProof.length > 0) return refuse(422, "a consistency proof from size 0 must be empty");
  } else {
    const check = verifyConsistency(oldSize, checkpoint.size, latest!.rootHash, checkpoint.rootHash, consistencyProof);
    if (!check.valid) return refuse(422, `the consistency proof does not verify: ${check.reason}`);
  }
  const line = cosign(opened.value.text, witnessKey, time);
  return {
    cosign: true,
    status: 200,
    contentType: TEXT,
    body: line,
    state: { size: checkpoint.size, rootHash: checkpoint.rootHash, note },
  };
}
