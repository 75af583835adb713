/**
 * c2sp.org/signed-note: note text rules (§Format), signature lines and key IDs (§Signatures), Ed25519 signatures
 * (§Ed25519 signatures, type 0x01), verifier keys (§Verifier keys) and the signer key string of Go's
 * golang.org/x/mod/sumdb/note (`PRIVATE+KEY+<name>+<hex8>+<base64(type‖seed)>`), whose Open this follows.
 */
import { ed25519 } from "@noble/curves/ed25519";
import { sha256 } from "@noble/hashes/sha2";
import { concatBytes, fromBase64, fromUtf8, isWellFormed, readUint32BE, type Result, ok, fail, toBase64, uint32BE, utf8 } from "./encoding";
import { TlogError } from "./errors";

export const ED25519_TYPE = 0x01;
/** Go's note.Open limit; the spec asks for at least 16. */
export const MAX_SIGNATURES = 100;
const SIGNATURE_PREFIX = "\u2014 ";

/** A key that can check signature lines: its name and key ID select it, `verify` checks the signature bytes. */
export interface NoteVerifier {
  name: string;
  keyId: number;
  verify(text: Uint8Array, signature: Uint8Array): boolean;
}

export interface NoteSigner {
  name: string;
  keyId: number;
  sign(text: Uint8Array): Uint8Array;
}

/** A parsed vkey: name, key ID, signature type byte and public key material. */
export interface VerifierKey {
  name: string;
  keyId: number;
  type: number;
  publicKey: Uint8Array;
}

export interface SignerKey extends VerifierKey {
  seed: Uint8Array;
}

/** One signature line: the name, the key ID, and the signature bytes after the key ID. */
export interface NoteSignature {
  name: string;
  keyId: number;
  signature: Uint8Array;
}

/** Non-empty, no Unicode space, no plus (§Format); Go's note adds valid UTF-8, which a JS string with no lone surrogate is. */
export function isValidKeyName(name: string): boolean {
  return name.length > 0 && isWellFormed(name) && !/[\p{White_Space}+]/u.test(name);
}

/** SHA-256(name ‖ 0x0A ‖ type ‖ public key)[:4] as a big-endian uint32 (§Signatures). */
export function keyId(name: string, type: number, publicKey: Uint8Array): number {
  return readUint32BE(sha256(concatBytes(utf8(`${name}\n`), Uint8Array.of(type), publicKey)));
}

const hex8 = (id: number) => id.toString(16).padStart(8, "0");

/** `<name>+<hex8 key ID>+<base64(type ‖ public key)>`. */
export function formatVerifierKey(name: string, type: number, publicKey: Uint8Array): string {
  if (!isValidKeyName(name)) throw new TlogError("TLOG_BAD_KEY", `"${name}" is not a valid key name`, { name });
  return `${name}+${hex8(keyId(name, type, publicKey))}+${toBase64(concatBytes(Uint8Array.of(type), publicKey))}`;
}

/** The types whose public key is 32 Ed25519 bytes: plain notes (0x01) and timestamped cosignatures (0x04). */
const ED25519_KEY_TYPES = new Set([0x01, 0x04]);

/** The first `count` plus-separated fields and the rest (base64 may itself hold a plus), or undefined if too few. */
function splitPlus(text: string, count: number): string[] | undefined {
  const fields: string[] = [];
  let rest = text;
  for (let i = 0; i < count; i++) {
    const at = rest.indexOf("+");
    if (at < 0) return undefined;
    fields.push(rest.slice(0, at));
    rest = rest.slice(at + 1);
  }
  return [...fields, rest];
}

export function parseVerifierKey(vkey: string): Result<VerifierKey> {
  const [name, id, material] = splitPlus(vkey, 2) ?? [];
  if (material === undefined) return fail("a verifier key is <name>+<hex8 key ID>+<base64 key>");
  if (!isValidKeyName(name!)) return fail(`"${name}" is not a valid key name`);
  if (!/^[0-9a-f]{8}$/.test(id!)) return fail(`key ID "${id}" is not 8 lowercase hex digits`);
  const bytes = fromBase64(material);
  if (!bytes || bytes.length < 2) return fail("the key is not standard base64 of a type byte and a public key");
  const [type, publicKey] = [bytes[0]!, bytes.slice(1)];
  if (!ED25519_KEY_TYPES.has(type)) return fail(`signature type 0x${type.toString(16).padStart(2, "0")} is not supported here`);
  if (publicKey.length !== 32) return fail(`an Ed25519 public key has 32 bytes, not ${publicKey.length}`);
  const expected = keyId(name!, type, publicKey);
  if (parseInt(id!, 16) !== expected) return fail(`key ID ${id} does not match the key (${hex8(expected)})`);
  return ok({ name: name!, keyId: expected, type, publicKey });
}

/** `PRIVATE+KEY+<name>+<hex8 key ID>+<base64(type ‖ 32-byte seed)>`, the key ID over the public key. */
export function formatSignerKey(name: string, type: number, seed: Uint8Array): string {
  if (!isValidKeyName(name)) throw new TlogError("TLOG_BAD_KEY", `"${name}" is not a valid key name`, { name });
  if (seed.length !== 32) throw new TlogError("TLOG_BAD_KEY", `an Ed25519 seed has 32 bytes, not ${seed.length}`, { name });
  const id = hex8(keyId(name, type, ed25519.getPublicKey(seed)));
  return `PRIVATE+KEY+${name}+${id}+${toBase64(concatBytes(Uint8Array.of(type), seed))}`;
}

export function parseSignerKey(skey: string): Result<SignerKey> {
  const parts = splitPlus(skey, 4) ?? [];
  if (parts.length !== 5 || parts[0] !== "PRIVATE" || parts[1] !== "KEY")
    return fail("a signer key is PRIVATE+KEY+<name>+<hex8 key ID>+<base64 key>");
  const bytes = fromBase64(parts[4]!);
  if (!bytes || bytes.length !== 33) return fail("the key is not standard base64 of a type byte and a 32-byte seed");
  const seed = bytes.slice(1);
  const vkey = parseVerifierKey(`${parts[2]}+${parts[3]}+${toBase64(concatBytes(bytes.subarray(0, 1), ed25519.getPublicKey(seed)))}`);
  return vkey.ok ? ok({ ...vkey.value, seed }) : vkey;
}

/** A fresh Ed25519 key (from the platform's CSPRNG unless a seed is given) as signer and verifier key strings. */
export function generateKey(
  name: string,
  type = ED25519_TYPE,
  seed: Uint8Array = ed25519.utils.randomPrivateKey(),
): { signerKey: string; verifierKey: string } {
  return { signerKey: formatSignerKey(name, type, seed), verifierKey: formatVerifierKey(name, type, ed25519.getPublicKey(seed)) };
}

/** A plain Ed25519 (type 0x01) verifier; other types build theirs (cosignature.ts for 0x04). */
export function ed25519Verifier(key: VerifierKey): NoteVerifier {
  if (key.type !== ED25519_TYPE)
    throw new TlogError("TLOG_BAD_KEY", `key ${key.name} has type ${key.type}, not Ed25519 (1)`, { name: key.name });
  return { name: key.name, keyId: key.keyId, verify: (text, sig) => sig.length === 64 && ed25519.verify(sig, text, key.publicKey) };
}

export function ed25519Signer(key: SignerKey): NoteSigner {
  if (key.type !== ED25519_TYPE)
    throw new TlogError("TLOG_BAD_KEY", `key ${key.name} has type ${key.type}, not Ed25519 (1)`, { name: key.name });
  return { name: key.name, keyId: key.keyId, sign: (text) => ed25519.sign(text, key.seed) };
}

/** Why a note text (or a whole note) breaks §Format: not UTF-8, or an ASCII control character other than newline. */
function badCharacters(text: string): string | undefined {
  if (!isWellFormed(text)) return "the note is not valid UTF-8";
  const m = /[\u0000-\u0009\u000b-\u001f]/.exec(text);
  return m ? `the note holds control character U+${m[0].charCodeAt(0).toString(16).padStart(4, "0")}` : undefined;
}

/** `— <name> <base64(key ID ‖ signature)>\n`. */
export function formatSignatureLine(sig: NoteSignature): string {
  return `${SIGNATURE_PREFIX}${sig.name} ${toBase64(concatBytes(uint32BE(sig.keyId), sig.signature))}\n`;
}

/** Signs a note text (ending in a newline) with each signer; returns text, blank line, signature lines. */
export function signNote(text: string, signers: readonly NoteSigner[]): string {
  const bad = badCharacters(text) ?? (text.endsWith("\n") ? undefined : "the note text does not end with a newline");
  if (bad) throw new TlogError("TLOG_BAD_NOTE", bad);
  const lines = signers.map((s) => {
    if (!isValidKeyName(s.name)) throw new TlogError("TLOG_BAD_KEY", `"${s.name}" is not a valid key name`, { name: s.name });
    return formatSignatureLine({ name: s.name, keyId: s.keyId, signature: s.sign(utf8(text)) });
  });
  return `${text}\n${lines.join("")}`;
}

export interface OpenedNote {
  /** the note text, final newline included */
  text: string;
  /** signatures by the given verifiers, each checked */
  verified: NoteSignature[];
  /** signatures by keys not given (kept, unchecked: another party may know them) */
  unverified: NoteSignature[];
}

/** Why a note was refused: malformed, a known key's signature failing, or no known key's signature at all. */
export type NoteProblem = "malformed" | "invalid-signature" | "no-known-signature";

export type OpenResult = { ok: true; value: OpenedNote } | { ok: false; problem: NoteProblem; error: string };

/** Splits a note into text and signature lines (§Format), checking the lines' shape but no signature. */
export function splitNote(note: string | Uint8Array): Result<{ text: string; signatures: NoteSignature[] }> {
  const whole = typeof note === "string" ? note : fromUtf8(note);
  if (whole === undefined) return fail("the note is not valid UTF-8");
  const bad = badCharacters(whole);
  if (bad) return fail(bad);
  const split = whole.lastIndexOf("\n\n");
  if (split < 0) return fail("the note has no blank line before its signatures");
  const text = whole.slice(0, split + 1);
  const block = whole.slice(split + 2);
  if (block === "" || !block.endsWith("\n")) return fail("the signature lines do not end with a newline");
  const signatures: NoteSignature[] = [];
  for (const line of block.slice(0, -1).split("\n")) {
    if (signatures.length === MAX_SIGNATURES) return fail(`the note has more than ${MAX_SIGNATURES} signatures`);
    if (!line.startsWith(SIGNATURE_PREFIX)) return fail(`"${line}" is not a signature line (em dash, space, name, space, base64)`);
    const rest = line.slice(SIGNATURE_PREFIX.length);
    const space = rest.indexOf(" ");
    const [name, b64] = space < 0 ? [rest, ""] : [rest.slice(0, space), rest.slice(space + 1)];
    const bytes = fromBase64(b64);
    if (!isValidKeyName(name) || !bytes || bytes.length < 5)
      return fail(`"${line}" is not a signature line (em dash, space, name, space, base64)`);
    signatures.push({ name, keyId: readUint32BE(bytes), signature: bytes.slice(4) });
  }
  return ok({ text, signatures });
}

/**
 * Opens a signed note as Go's note.Open does: signatures from unknown keys are kept unverified; a known key's
 * signature is checked (a repeated one is skipped) and one that fails refuses the note; at least one must verify.
 */
export function openNote(note: string | Uint8Array, verifiers: readonly NoteVerifier[]): OpenResult {
  const split = splitNote(note);
  if (!split.ok) return { ok: false, problem: "malformed", error: split.error };
  const { text, signatures } = split.value;
  const textBytes = utf8(text);
  const verified: NoteSignature[] = [];
  const unverified: NoteSignature[] = [];
  const seen = new Set<string>();
  for (const sig of signatures) {
    const key = `${sig.name}+${hex8(sig.keyId)}`;
    const matches = verifiers.filter((v) => v.name === sig.name && v.keyId === sig.keyId);
    if (matches.length > 1) return { ok: false, problem: "malformed", error: `more than one verifier for key ${key}` };
    const verifier = matches[0];
    if (seen.has(key + (verifier ? "" : toBase64(sig.signature)))) continue;
    seen.add(key + (verifier ? "" : toBase64(sig.signature)));
    if (!verifier) {
      unverified.push(sig);
      continue;
    }
    if (!verifier.verify(textBytes, sig.signature))
      return { ok: false, problem: "invalid-signature", error: `the signature of key ${key} does not verify` };
    verified.push(sig);
  }
  if (verified.length === 0) return { ok: false, problem: "no-known-signature", error: "no signature of a known key" };
  return { ok: true, value: { text, verified, unverified } };
}
