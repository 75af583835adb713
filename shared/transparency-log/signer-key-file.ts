/**
 * A signed-note signer key (`PRIVATE+KEY+<name>+…`) kept in a file: read, or made on the first start (an exclusive
 * create with mode 0600, so two first starts cannot both write one); refused when others may read the file, or when
 * it holds another name or key type than asked. The key is never printed; errors name the file, never its content.
 * The log's key (log-key.ts) and a witness's (shared/witness/witness-config.ts) are such files.
 */
import { closeSync, existsSync, fstatSync, openSync, readFileSync, writeSync } from "node:fs";
import { TypedError } from "../domain/errors";
import { generateKey, parseSignerKey, type SignerKey } from "../tlog/note";

export class SignerKeyFileError extends TypedError<"SIGNER_KEY_FILE"> {
  override readonly name = "SignerKeyFileError";
  constructor(message: string) {
    super("SIGNER_KEY_FILE", message);
  }
}

/** @throws SignerKeyFileError */
export function loadOrCreateSignerKeyFile(path: string, name: string, type: number): { key: SignerKey; created: boolean } {
  let created = false;
  if (!existsSync(path)) {
    const fd = openSync(path, "wx", 0o600);
    try {
      writeSync(fd, `${generateKey(name, type).signerKey}\n`);
    } finally {
      closeSync(fd);
    }
    created = true;
  }
  const fd = openSync(path, "r");
  let text: string;
  try {
    if ((fstatSync(fd).mode & 0o077) !== 0) throw new SignerKeyFileError(`${path} is readable by others: chmod 600 it`);
    text = readFileSync(fd, "utf8").trim();
  } finally {
    closeSync(fd);
  }
  const parsed = parseSignerKey(text);
  if (!parsed.ok) throw new SignerKeyFileError(`${path} does not hold a signer key: ${parsed.error}`);
  const key = parsed.value;
  if (key.type !== type) throw new SignerKeyFileError(`${path} holds a key of type ${key.type}, not ${type}`);
  if (key.name !== name) throw new SignerKeyFileError(`${path} holds the key of ${key.name}, not of ${name}`);
  return { key, created };
}
