/**
 * c2sp.org/tlog-proof@v1 §Format and §Verifying a tlog proof: the header line, an optional `extra <base64>` line,
 * `index <N>`, the inclusion proof one base64 hash a line, an empty line, then the signed checkpoint verbatim; and
 * its offline check (log signature for the origin, known cosignatures against a quorum, inclusion of the leaf hash).
 */
import { type Checkpoint, parseCheckpoint } from "./checkpoint";
import { fromBase64, parseDecimal, type Result, ok, fail, toBase64 } from "./encoding";
import { type NoteSignature, type NoteVerifier, openNote, splitNote } from "./note";
import { HASH_SIZE, verifyInclusion } from "./rfc9162";

export const TLOG_PROOF_HEADER = "c2sp.org/tlog-proof@v1";

export interface TlogProof {
  /** opaque, unauthenticated extra data */
  extra?: Uint8Array;
  index: number;
  inclusionProof: Uint8Array[];
  /** the signed checkpoint note, verbatim */
  checkpoint: string;
}

export function formatTlogProof(proof: TlogProof): string {
  const extra = proof.extra === undefined ? "" : `extra ${toBase64(proof.extra)}\n`;
  const hashes = proof.inclusionProof.map((h) => `${toBase64(h)}\n`).join("");
  return `${TLOG_PROOF_HEADER}\n${extra}index ${proof.index}\n${hashes}\n${proof.checkpoint}`;
}

export function parseTlogProof(text: string): Result<TlogProof> {
  const lines = text.split("\n");
  let i = 0;
  if (lines[i++] !== TLOG_PROOF_HEADER) return fail(`the first line is not ${TLOG_PROOF_HEADER}`);
  let extra: Uint8Array | undefined;
  if (lines[i]?.startsWith("extra ")) {
    extra = fromBase64(lines[i]!.slice("extra ".length));
    if (!extra) return fail("the extra line is not standard base64");
    i++;
  }
  const indexLine = /^index (0|[1-9][0-9]*)$/.exec(lines[i++] ?? "");
  const index = indexLine ? parseDecimal(indexLine[1]!) : undefined;
  if (index === undefined) return fail("the index line is not index <N> in decimal without leading zeros");
  const inclusionProof: Uint8Array[] = [];
  for (; i < lines.length && lines[i] !== ""; i++) {
    const hash = fromBase64(lines[i]!);
    if (!hash || hash.length !== HASH_SIZE) return fail(`proof line "${lines[i]}" is not base64 of a ${HASH_SIZE}-byte hash`);
    inclusionProof.push(hash);
  }
  if (i >= lines.length) return fail("no empty line before the checkpoint");
  const checkpoint = lines.slice(i + 1).join("\n");
  const split = splitNote(checkpoint);
  if (!split.ok) return fail(`the checkpoint is not a signed note: ${split.error}`);
  return ok({ ...(extra === undefined ? {} : { extra }), index, inclusionProof, checkpoint });
}

export interface TlogProofPolicy {
  /** the origin the checkpoint must name */
  origin: string;
  /** the log's verifier keys for that origin; one must have signed */
  logKeys: readonly NoteVerifier[];
  /** known witnesses' cosignature verifiers (cosignature.ts) */
  witnessKeys?: readonly NoteVerifier[];
  /** how many known witnesses must have cosigned (default 0) */
  quorum?: number;
}

export interface VerifiedTlogProof {
  proof: TlogProof;
  checkpoint: Checkpoint;
  /** the witnesses whose cosignatures verified */
  cosigners: NoteSignature[];
}

/**
 * The step of the check that failed, in the order they run: `format` (the proof text), `signature` (the checkpoint
 * opens under the log's keys for the origin), `witnesses` (the quorum of known cosigners), `inclusion` (the leaf's
 * path to the checkpoint's root).
 */
export type TlogProofStep = "format" | "signature" | "witnesses" | "inclusion";

export type TlogProofCheck = { ok: true; value: VerifiedTlogProof } | { ok: false; step: TlogProofStep; error: string };

/** §Verifying a tlog proof, steps 2–4, for a leaf hash the caller computed (step 1). */
export function verifyTlogProof(text: string, leafHash: Uint8Array, policy: TlogProofPolicy): TlogProofCheck {
  const refuse = (step: TlogProofStep, error: string): TlogProofCheck => ({ ok: false, step, error });
  const parsed = parseTlogProof(text);
  if (!parsed.ok) return refuse("format", parsed.error);
  const proof = parsed.value;
  const witnessKeys = policy.witnessKeys ?? [];
  const opened = openNote(proof.checkpoint, [...policy.logKeys, ...witnessKeys]);
  if (!opened.ok) return refuse("signature", `the checkpoint does not open: ${opened.error}`);
  const checkpoint = parseCheckpoint(opened.value.text);
  if (!checkpoint.ok) return refuse("signature", `the checkpoint is malformed: ${checkpoint.error}`);
  if (checkpoint.value.origin !== policy.origin)
    return refuse("signature", `the checkpoint's origin is ${checkpoint.value.origin}, not ${policy.origin}`);
  const by = (keys: readonly NoteVerifier[]) =>
    opened.value.verified.filter((s) => keys.some((k) => k.name === s.name && k.keyId === s.keyId));
  if (by(policy.logKeys).length === 0) return refuse("signature", "no signature of the log's keys");
  const cosigners = by(witnessKeys);
  if (cosigners.length < (policy.quorum ?? 0))
    return refuse("witnesses", `${cosigners.length} known witnesses cosigned, the policy needs ${policy.quorum}`);
  const inclusion = verifyInclusion(leafHash, proof.index, checkpoint.value.size, proof.inclusionProof, checkpoint.value.rootHash);
  if (!inclusion.valid) return refuse("inclusion", `the inclusion proof does not verify: ${inclusion.reason}`);
  return { ok: true, value: { proof, checkpoint: checkpoint.value, cosigners } };
}
