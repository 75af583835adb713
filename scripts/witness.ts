// `npm run witness -- --key-file <path> --name <witness name> --log <origin>=<log vkey> [--log …] [--port 7380]
// [--host 127.0.0.1] [--prefix /] [--data-dir <dir>]`: a c2sp.org/tlog-witness witness (docs/transparency-log.md#witness).
// The cosigner key is created in the key file (mode 0600) on the first start and never printed; the first log line
// carries the verifier key to hand to logs. Logs may also come from WITNESS_LOGS="origin=vkey,…". The record of each
// log lives in SQLite under --data-dir (default ./data/witness), or in MongoDB when MONGO_URL is set.
// Exit code 2 for bad arguments, a bad key file or a store that cannot be opened.
import { parseArgs } from "node:util";
import { mkdirSync } from "node:fs";
import pino from "pino";
import { createStore, readStoreConfig, type Store } from "../shared/store";
import { WitnessConfigError, loadOrCreateWitnessKey, logEntriesOfEnv, parseLogList } from "../shared/witness/witness-config";
import { addCheckpointPath, startWitnessServer } from "../shared/witness/witness-server";
import { createWitnessState } from "../shared/witness/witness-state";

const USAGE = `usage: npm run witness -- --key-file <path> --name <witness name> --log <origin>=<log verifier key> [--log …]
  [--port 7380] [--host 127.0.0.1] [--prefix /] [--data-dir ./data/witness]
  logs also from WITNESS_LOGS="origin=vkey,origin=vkey"; MONGO_URL (and MONGO_DB) for a shared MongoDB`;

function usageError(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function parseCommandLine(argv: string[]) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        "key-file": { type: "string" },
        name: { type: "string" },
        log: { type: "string", multiple: true },
        port: { type: "string", default: "7380" },
        host: { type: "string", default: "127.0.0.1" },
        prefix: { type: "string", default: "/" },
        "data-dir": { type: "string", default: "./data/witness" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    return usageError(err instanceof Error ? err.message : String(err));
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) usageError(`--port ${values.port} is not a port number`);
  if (!values["key-file"]) usageError("missing --key-file");
  if (!values.name) usageError("missing --name");
  if (!values.prefix.startsWith("/")) usageError(`--prefix ${values.prefix} does not start with /`);
  return {
    keyFile: values["key-file"],
    name: values.name,
    logs: values.log ?? [],
    port,
    host: values.host,
    prefix: values.prefix,
    dataDir: values["data-dir"],
  };
}

async function main(): Promise<void> {
  const args = parseCommandLine(process.argv.slice(2));
  let witness, logs;
  try {
    logs = parseLogList([...args.logs, ...logEntriesOfEnv(process.env.WITNESS_LOGS)]);
    if (logs.size === 0) throw new WitnessConfigError("no log to witness: give --log <origin>=<vkey> or WITNESS_LOGS");
    witness = loadOrCreateWitnessKey(args.keyFile, args.name);
  } catch (err) {
    if (err instanceof WitnessConfigError || (err as NodeJS.ErrnoException).code !== undefined)
      return usageError(err instanceof Error ? err.message : String(err));
    throw err;
  }
  const logger = pino({ name: "witness" });
  const storeConfig = { ...readStoreConfig(process.env), dataDir: args.dataDir };
  let store: Store;
  try {
    if (!storeConfig.mongoUrl) mkdirSync(args.dataDir, { recursive: true });
    store = await createStore(storeConfig);
  } catch (err) {
    logger.error({ err: err instanceof Error ? err.message : String(err) }, "the witness's store cannot be opened");
    return process.exit(2);
  }
  const running = await startWitnessServer({
    witnessKey: witness.key,
    logs,
    state: createWitnessState(store),
    prefix: args.prefix,
    logger,
    host: args.host,
    port: args.port,
  });
  logger.info(
    {
      verifierKey: witness.verifierKey,
      keyCreated: witness.created,
      url: `${running.url}${addCheckpointPath(args.prefix)}`,
      store: store.kind,
      logs: [...logs.keys()],
    },
    "witness listening",
  );
  const stop = (signal: string) => {
    logger.info({ signal }, "witness stopping");
    void running
      .close()
      .then(() => store.close())
      .finally(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${JSON.stringify({ error: "ERROR", message: err instanceof Error ? err.message : String(err) })}\n`);
    process.exit(1);
  });
}
