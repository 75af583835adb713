/**
 * The log's Ed25519 signing key (c2sp.org/signed-note): `LOG_SIGNER_KEY` (a `PRIVATE+KEY+<origin>+…` string) when
 * set, else the key file DATA_DIR/log-key, made on first start (signer-key-file.ts). Its name is the log's origin.
 * The key is never logged; the verifier key string is what the log publishes (`GET /api/v1/log`).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ED25519_TYPE, ed25519Signer, formatVerifierKey, parseSignerKey, type NoteSigner, type SignerKey } from "../tlog/note";
import { loadOrCreateSignerKeyFile, SignerKeyFileError } from "./signer-key-file";

export const LOG_KEY_FILE = "log-key";

export interface LogKey {
  signer: NoteSigner;
  /** the key itself, for the COSE receipts it signs (never logged: log `verifierKey` only) */
  signerKey: SignerKey;
  /** `<origin>+<key id>+<public key>` */
  verifierKey: string;
  source: "LOG_SIGNER_KEY" | "key-file" | "created";
}

export class LogKeyError extends Error {
  override readonly name = "LogKeyError";
}

export function loadOrCreateLogKey(opts: { dataDir: string; signerKey: string | null; origin: string }): LogKey {
  if (opts.signerKey !== null) {
    const parsed = parseSignerKey(opts.signerKey);
    // the message names the problem, never the key
    if (!parsed.ok) throw new LogKeyError(`LOG_SIGNER_KEY is not a signed-note signer key: ${parsed.error}`);
    if (parsed.value.name !== opts.origin)
      throw new LogKeyError(`LOG_SIGNER_KEY is named "${parsed.value.name}", but the log's origin (LOG_ORIGIN) is "${opts.origin}".`);
    return logKeyOf(parsed.value, "LOG_SIGNER_KEY");
  }
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const file = join(opts.dataDir, LOG_KEY_FILE);
  try {
    const { key, created } = loadOrCreateSignerKeyFile(file, opts.origin, ED25519_TYPE);
    return logKeyOf(key, created ? "created" : "key-file");
  } catch (err) {
    // a log signs under its origin's key only: another origin's key file is the operator's to move or keep
    if (err instanceof SignerKeyFileError)
      throw new LogKeyError(
        `${err.message}. The log's origin is LOG_ORIGIN="${opts.origin}": set it back, or move ${file} away to start a new log.`,
      );
    throw err;
  }
}

function logKeyOf(key: SignerKey, source: LogKey["source"]): LogKey {
  return { signer: ed25519Signer(key), signerKey: key, verifierKey: formatVerifierKey(key.name, key.type, key.publicKey), source };
}
