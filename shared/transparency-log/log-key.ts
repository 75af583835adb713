/**
 * The log's Ed25519 signing key (c2sp.org/signed-note): `LOG_SIGNER_KEY` (a `PRIVATE+KEY+<origin>+…` string) when
 * set, else the key file DATA_DIR/log-key, made on first start (mode 0600). Its name is the log's origin. The key
 * is never logged; the verifier key string is what the log publishes (`GET /api/v1/log`).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ed25519Signer, formatVerifierKey, generateKey, parseSignerKey, type NoteSigner } from "../tlog/note";

export const LOG_KEY_FILE = "log-key";

export interface LogKey {
  signer: NoteSigner;
  /** `<origin>+<key id>+<public key>` */
  verifierKey: string;
  source: "LOG_SIGNER_KEY" | "key-file" | "created";
}

export class LogKeyError extends Error {
  override readonly name = "LogKeyError";
}

export function loadOrCreateLogKey(opts: { dataDir: string; signerKey: string | null; origin: string }): LogKey {
  if (opts.signerKey !== null) return logKeyOf(opts.signerKey, opts.origin, "LOG_SIGNER_KEY");
  const file = join(opts.dataDir, LOG_KEY_FILE);
  if (existsSync(file)) return logKeyOf(readFileSync(file, "utf8").trim(), opts.origin, "key-file");
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const { signerKey } = generateKey(opts.origin);
  writeFileSync(file, `${signerKey}\n`, { mode: 0o600, flag: "wx" });
  return logKeyOf(signerKey, opts.origin, "created");
}

function logKeyOf(signerKey: string, origin: string, source: LogKey["source"]): LogKey {
  const parsed = parseSignerKey(signerKey);
  // the message names the problem, never the key
  if (!parsed.ok) throw new LogKeyError(`The log key (${source}) is not a signed-note signer key: ${parsed.error}`);
  if (parsed.value.name !== origin)
    throw new LogKeyError(`The log key (${source}) is named "${parsed.value.name}", but the log's origin (LOG_ORIGIN) is "${origin}".`);
  const signer = ed25519Signer(parsed.value);
  return { signer, verifierKey: formatVerifierKey(parsed.value.name, parsed.value.type, parsed.value.publicKey), source };
}
