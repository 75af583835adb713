/**
 * What the witness command needs before it serves: its cosigner key, kept in a key file it creates on the first
 * start (mode 0600, the signed-note `PRIVATE+KEY+…` string, never printed), and the logs it follows, each an
 * `origin=<log verifier key>` pair (Ed25519, type 0x01; an origin may be given several keys).
 */
import { COSIGNATURE_TYPE, formatCosignerVerifierKey } from "../tlog/cosignature";
import { ED25519_TYPE, type NoteVerifier, type SignerKey, ed25519Verifier, isValidKeyName, parseVerifierKey } from "../tlog/note";
import { loadOrCreateSignerKeyFile, SignerKeyFileError } from "../transparency-log/signer-key-file";
import { TypedError } from "../domain/errors";

export class WitnessConfigError extends TypedError<"WITNESS_CONFIG"> {
  override readonly name = "WitnessConfigError";
  constructor(message: string) {
    super("WITNESS_CONFIG", message);
  }
}

export interface WitnessKey {
  key: SignerKey;
  /** the vkey to hand to logs: `<name>+<hex8>+<base64(0x04 ‖ public key)>` */
  verifierKey: string;
  created: boolean;
}

/**
 * Reads the cosigner key of `name` from `path`, or creates it there when the file does not exist
 * (shared/transparency-log/signer-key-file.ts).
 * @throws WitnessConfigError for an unreadable key, another type or another name than asked
 */
export function loadOrCreateWitnessKey(path: string, name: string): WitnessKey {
  if (!isValidKeyName(name)) throw new WitnessConfigError(`"${name}" is not a valid key name (no spaces, no plus)`);
  try {
    const { key, created } = loadOrCreateSignerKeyFile(path, name, COSIGNATURE_TYPE);
    return { key, verifierKey: formatCosignerVerifierKey(key.name, key.publicKey), created };
  } catch (err) {
    if (err instanceof SignerKeyFileError) throw new WitnessConfigError(err.message);
    throw err;
  }
}

/**
 * The logs from `origin=<vkey>` entries (the first `=` separates: an origin holds none, a vkey's base64 may).
 * @throws WitnessConfigError naming the entry that is not one
 */
export function parseLogList(entries: readonly string[]): Map<string, NoteVerifier[]> {
  const logs = new Map<string, NoteVerifier[]>();
  for (const entry of entries) {
    const at = entry.indexOf("=");
    const origin = at < 0 ? "" : entry.slice(0, at).trim();
    if (origin === "") throw new WitnessConfigError(`"${entry}" is not <origin>=<log verifier key>`);
    const vkey = parseVerifierKey(entry.slice(at + 1).trim());
    if (!vkey.ok) throw new WitnessConfigError(`the key of log ${origin} is malformed: ${vkey.error}`);
    if (vkey.value.type !== ED25519_TYPE)
      throw new WitnessConfigError(`the key of log ${origin} has type ${vkey.value.type}; a log signs with Ed25519 (1)`);
    logs.set(origin, [...(logs.get(origin) ?? []), ed25519Verifier(vkey.value)]);
  }
  return logs;
}

/** `WITNESS_LOGS="origin=vkey,origin=vkey"`: the same entries, comma-separated. */
export function logEntriesOfEnv(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}
