/**
 * c2sp.org/tlog-cosignature §Format and §Ed25519 signed message (v1, signature type 0x04): the cosigner key ID
 * SHA-256(name ‖ 0x0A ‖ 0x04 ‖ public key)[:4], the signed message `cosignature/v1\ntime <T>\n` ‖ checkpoint text,
 * and the signature bytes: 8-byte big-endian timestamp ‖ 64-byte Ed25519 signature.
 */
import { ed25519 } from "@noble/curves/ed25519";
import { concatBytes, readUint64BE, type Result, ok, fail, uint64BE, utf8 } from "./encoding";
import { TlogError } from "./errors";
import {
  type NoteSignature,
  type NoteVerifier,
  type SignerKey,
  type VerifierKey,
  formatSignatureLine,
  formatVerifierKey,
  keyId,
  splitNote,
} from "./note";

export const COSIGNATURE_TYPE = 0x04;
const MAX_TIMESTAMP = 2n ** 63n - 1n;

/** The message a v1 cosignature signs: header line, time line, then the checkpoint's note text. */
export function cosignedMessage(checkpointText: string, timestamp: bigint): Uint8Array {
  return concatBytes(utf8(`cosignature/v1\ntime ${timestamp}\n`), utf8(checkpointText));
}

export function cosignerKeyId(name: string, publicKey: Uint8Array): number {
  return keyId(name, COSIGNATURE_TYPE, publicKey);
}

/** The cosigner's vkey: `<name>+<hex8>+<base64(0x04 ‖ public key)>`. */
export function formatCosignerVerifierKey(name: string, publicKey: Uint8Array): string {
  return formatVerifierKey(name, COSIGNATURE_TYPE, publicKey);
}

/** A cosignature of a checkpoint's note text at `timestamp` (POSIX seconds), as a note signature line. */
export function cosign(checkpointText: string, key: SignerKey, timestamp: bigint): string {
  if (key.type !== COSIGNATURE_TYPE)
    throw new TlogError("TLOG_BAD_KEY", `key ${key.name} has type ${key.type}, not a cosigner's (4)`, { name: key.name });
  if (timestamp < 0n || timestamp > MAX_TIMESTAMP) throw new TlogError("TLOG_BAD_ARGUMENT", `timestamp ${timestamp} is not in 0..2^63-1`);
  const signature = ed25519.sign(cosignedMessage(checkpointText, timestamp), key.seed);
  return formatSignatureLine({ name: key.name, keyId: key.keyId, signature: concatBytes(uint64BE(timestamp), signature) });
}

/** The timestamp of a cosignature's signature bytes and whether they verify for this checkpoint text and key. */
export function checkCosignature(checkpointText: string, signature: Uint8Array, key: VerifierKey): Result<{ timestamp: bigint }> {
  if (key.type !== COSIGNATURE_TYPE) return fail(`key ${key.name} has type ${key.type}, not a cosigner's (4)`);
  if (signature.length !== 8 + 64) return fail(`a cosignature has 72 bytes (timestamp and signature), not ${signature.length}`);
  const timestamp = readUint64BE(signature);
  if (timestamp > MAX_TIMESTAMP) return fail(`timestamp ${timestamp} exceeds 2^63-1`);
  if (!ed25519.verify(signature.subarray(8), cosignedMessage(checkpointText, timestamp), key.publicKey))
    return fail(`the cosignature of ${key.name} does not verify`);
  return ok({ timestamp });
}

/** A note verifier for a cosigner key, for openNote (which hands it the checkpoint text and the signature bytes). */
export function cosignatureVerifier(key: VerifierKey): NoteVerifier {
  if (key.type !== COSIGNATURE_TYPE)
    throw new TlogError("TLOG_BAD_KEY", `key ${key.name} has type ${key.type}, not a cosigner's (4)`, { name: key.name });
  const decoder = new TextDecoder();
  return { name: key.name, keyId: key.keyId, verify: (text, sig) => checkCosignature(decoder.decode(text), sig, key).ok };
}

/**
 * Checks one cosignature line against a checkpoint's note text: the line's name and key ID must be the key's.
 * Returns the signature and its timestamp.
 */
export function verifyCosignatureLine(
  checkpointText: string,
  line: string,
  key: VerifierKey,
): Result<NoteSignature & { timestamp: bigint }> {
  const split = splitNote(`${checkpointText}\n${line.endsWith("\n") ? line : `${line}\n`}`);
  if (!split.ok) return split;
  if (split.value.text !== checkpointText || split.value.signatures.length !== 1) return fail("expected one signature line");
  const sig = split.value.signatures[0]!;
  if (sig.name !== key.name || sig.keyId !== key.keyId) return fail(`the line is signed by ${sig.name}, not by key ${key.name}`);
  const checked = checkCosignature(checkpointText, sig.signature, key);
  return checked.ok ? ok({ ...sig, timestamp: checked.value.timestamp }) : checked;
}
