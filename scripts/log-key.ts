// `npm run log-key -- --origin <LOG_ORIGIN> --key-file <path>`: makes the transparency log's Ed25519 signer key in
// a new file (mode 0600; refused if the file exists with another origin's key), for LOG_SIGNER_KEY in a deployment of
// several calendar replicas (deploy/k8s/secret.example.yaml). Prints only its verifier key, as JSON; the key itself
// stays in the file. Exit code 2 for bad arguments or a file that cannot be used.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { ED25519_TYPE, formatVerifierKey, isValidKeyName } from "../shared/tlog/note";
import { loadOrCreateSignerKeyFile, SignerKeyFileError } from "../shared/transparency-log/signer-key-file";

const USAGE = "usage: npm run log-key -- --origin <LOG_ORIGIN> --key-file <path>";

function main(): number {
  let values: { origin?: string; "key-file"?: string };
  try {
    ({ values } = parseArgs({ options: { origin: { type: "string" }, "key-file": { type: "string" } }, strict: true }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { origin, "key-file": keyFile } = values;
  if (origin === undefined || keyFile === undefined || !isValidKeyName(origin)) {
    process.stderr.write(`${USAGE}\n(the origin: a schema-less URL without spaces or "+")\n`);
    return 2;
  }
  try {
    mkdirSync(dirname(keyFile), { recursive: true, mode: 0o700 });
    const { key, created } = loadOrCreateSignerKeyFile(keyFile, origin, ED25519_TYPE);
    process.stdout.write(`${JSON.stringify({ keyFile, created, verifierKey: formatVerifierKey(key.name, key.type, key.publicKey) })}\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof SignerKeyFileError) && (err as NodeJS.ErrnoException).code === undefined) throw err;
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
}

process.exitCode = main();
