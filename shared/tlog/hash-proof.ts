/**
 * The tlog-proof of a hash submitted to the calendar (docs/transparency-log.md#checking-a-proof): the log's entry is
 * SHA-256(nonce ‖ hash) with a 16-byte nonce, the proof's `extra` line carries that nonce, and the leaf is the
 * entry's RFC 9162 leaf hash. `verifyHashProof` computes the leaf of a document's hash from the proof's nonce and
 * runs the c2sp.org/tlog-proof@v1 check. Used by `npm run verify-proof` and by the home page's browser bundle.
 */
import { sha256 } from "@noble/hashes/sha2";
import { concatBytes } from "./encoding";
import { splitNote } from "./note";
import { parseCheckpoint } from "./checkpoint";
import { leafHash } from "./rfc9162";
import { parseTlogProof, verifyTlogProof, type TlogProofPolicy, type TlogProofStep, type VerifiedTlogProof } from "./tlog-proof";

export const NONCE_SIZE = 16;
export const SUBMITTED_HASH_SIZE = 32;

/** The log entry of a submitted hash: SHA-256(nonce ‖ hash). */
export const entryOfHash = (nonce: Uint8Array, hash: Uint8Array): Uint8Array => sha256(concatBytes(nonce, hash));

/** `nonce`: the proof's extra is not a 16-byte nonce; the other steps are verifyTlogProof's. */
export type HashProofStep = TlogProofStep | "nonce";

export interface HashProofFailure {
  ok: false;
  step: HashProofStep;
  error: string;
  /** the proof's index, when the text parses */
  index?: number;
  /** the checkpoint's size, once its signature held (step `witnesses` or `inclusion`) */
  size?: number;
}

export type HashProofCheck = { ok: true; value: VerifiedTlogProof & { nonce: Uint8Array; leaf: Uint8Array } } | HashProofFailure;

/** The checkpoint size a proof text states (not verified here). */
function statedSize(checkpoint: string): number | undefined {
  const split = splitNote(checkpoint);
  const parsed = split.ok ? parseCheckpoint(split.value.text) : undefined;
  return parsed?.ok ? parsed.value.size : undefined;
}

/** Checks that the proof `text` shows `hash` (32 bytes, the SHA-256 of a document) in the log of `policy`. */
export function verifyHashProof(text: string, hash: Uint8Array, policy: TlogProofPolicy): HashProofCheck {
  if (hash.length !== SUBMITTED_HASH_SIZE) return { ok: false, step: "format", error: `the hash has ${hash.length} bytes, not 32` };
  const parsed = parseTlogProof(text);
  if (!parsed.ok) return { ok: false, step: "format", error: parsed.error };
  const { extra, index, checkpoint } = parsed.value;
  if (extra?.length !== NONCE_SIZE)
    return {
      ok: false,
      step: "nonce",
      index,
      error:
        extra === undefined
          ? "the proof has no extra line (the 16-byte nonce)"
          : `the extra line holds ${extra.length} bytes, not a 16-byte nonce`,
    };
  const leaf = leafHash(entryOfHash(extra, hash));
  const checked = verifyTlogProof(text, leaf, policy);
  if (checked.ok) return { ok: true, value: { ...checked.value, nonce: extra, leaf } };
  const size = checked.step === "witnesses" || checked.step === "inclusion" ? statedSize(checkpoint) : undefined;
  return { ok: false, step: checked.step, error: checked.error, index, ...(size !== undefined ? { size } : {}) };
}
