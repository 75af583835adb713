// `npm run wallet -- <command> [options]`: a command-line CIP-1852 wallet (keys, addresses, CIP-30 signTx/signData).
//   create        --key-file <path> [--network 0|1] [--account N] [--overwrite]
//   restore       --key-file <path> [--network 0|1] [--account N] [--overwrite]   (mnemonic read from stdin)
//   address       --key-file <path>
//   show-mnemonic --key-file <path> --reveal-secret
//   sign-tx       --key-file <path> [--tx <cbor hex> | stdin] [--full]
//   sign-data     --key-file <path> (--payload-hex <hex> | --message <utf8>) [--address <bech32>]
//   verify-data   --signature <hex> --key <hex> --address <bech32> [--payload-hex <hex> | --message <utf8>]
// The mnemonic never goes on the command line (shell history, process list) and is printed only by
// `show-mnemonic --reveal-secret`. Output is JSON on stdout; errors are JSON on stderr with exit code 1.
import { TypedError } from "../shared/domain/errors";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import {
  WalletError,
  generateMnemonic,
  readKeyFile,
  verifyDataSignature,
  walletFromKeyFile,
  writeKeyFile,
  type Wallet,
} from "../shared/wallet";

const USAGE = `usage: npm run wallet -- <create|restore|address|show-mnemonic|sign-tx|sign-data|verify-data> [options]
  create        --key-file <path> [--network 0|1] [--account N] [--overwrite]
  restore       --key-file <path> [--network 0|1] [--account N] [--overwrite]   (mnemonic on stdin)
  address       --key-file <path>
  show-mnemonic --key-file <path> --reveal-secret
  sign-tx       --key-file <path> [--tx <cbor hex> | stdin] [--full]
  sign-data     --key-file <path> (--payload-hex <hex> | --message <text>) [--address <bech32>]
  verify-data   --signature <hex> --key <hex> --address <bech32> [--payload-hex <hex> | --message <text>]`;

class UsageError extends TypedError<"USAGE"> {
  override readonly name = "UsageError";
  constructor(message: string) {
    super("USAGE", message);
  }
}

function publicView(w: Wallet): Record<string, unknown> {
  return w.toJSON();
}

function need(v: string | undefined, flag: string): string {
  if (!v) throw new UsageError(`missing --${flag}`);
  return v;
}

function readStdin(): string {
  try {
    return readFileSync(0, "utf8").trim();
  } catch {
    return "";
  }
}

function payloadOf(values: { "payload-hex"?: string; message?: string }): string | undefined {
  if (values["payload-hex"] !== undefined && values.message !== undefined)
    throw new UsageError("give --payload-hex or --message, not both");
  if (values.message !== undefined) return Buffer.from(values.message, "utf8").toString("hex");
  return values["payload-hex"];
}

export function run(argv: string[], stdin: () => string = readStdin): Record<string, unknown> | string | boolean {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      "key-file": { type: "string" },
      network: { type: "string" },
      account: { type: "string" },
      overwrite: { type: "boolean" },
      "reveal-secret": { type: "boolean" },
      tx: { type: "string" },
      full: { type: "boolean" },
      "payload-hex": { type: "string" },
      message: { type: "string" },
      address: { type: "string" },
      signature: { type: "string" },
      key: { type: "string" },
    },
    strict: true,
  });
  const networkId = values.network === undefined ? 0 : Number(values.network);
  const account = values.account === undefined ? 0 : Number(values.account);
  switch (command) {
    case "create": {
      const w = writeKeyFile(need(values["key-file"], "key-file"), generateMnemonic(), {
        networkId,
        account,
        overwrite: values.overwrite === true,
      });
      return { created: values["key-file"], ...publicView(w) };
    }
    case "restore": {
      const mnemonic = stdin();
      if (!mnemonic) throw new UsageError("restore reads the mnemonic from stdin");
      const w = writeKeyFile(need(values["key-file"], "key-file"), mnemonic, { networkId, account, overwrite: values.overwrite === true });
      return { restored: values["key-file"], ...publicView(w) };
    }
    case "address":
      return publicView(walletFromKeyFile(need(values["key-file"], "key-file")));
    case "show-mnemonic": {
      if (values["reveal-secret"] !== true) throw new UsageError("show-mnemonic prints the secret only with --reveal-secret");
      return { mnemonic: readKeyFile(need(values["key-file"], "key-file")).mnemonic };
    }
    case "sign-tx": {
      const w = walletFromKeyFile(need(values["key-file"], "key-file"));
      const tx = (values.tx ?? stdin()).trim();
      if (!tx) throw new UsageError("give the transaction CBOR hex with --tx or on stdin");
      return values.full === true ? { transaction: w.signTxFull(tx) } : { witnessSet: w.signTx(tx) };
    }
    case "sign-data": {
      const w = walletFromKeyFile(need(values["key-file"], "key-file"));
      const payload = payloadOf(values);
      if (payload === undefined) throw new UsageError("give --payload-hex or --message");
      return { ...w.signData(payload, values.address ?? w.address) };
    }
    case "verify-data": {
      const payloadHex = payloadOf(values);
      return {
        valid: verifyDataSignature({
          signature: need(values.signature, "signature"),
          key: need(values.key, "key"),
          address: need(values.address, "address"),
          ...(payloadHex !== undefined ? { payloadHex } : {}),
        }),
      };
    }
    default:
      throw new UsageError(command ? `unknown command ${command}` : "no command");
  }
}

if (require.main === module) {
  try {
    const result = run(process.argv.slice(2));
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    if (typeof result === "object" && result !== null && (result as { valid?: unknown }).valid === false) process.exitCode = 1;
  } catch (err) {
    if (err instanceof UsageError || (err instanceof TypeError && /Unknown option|Unexpected argument/.test(err.message))) {
      process.stderr.write(`${JSON.stringify({ error: "USAGE", message: err.message })}\n${USAGE}\n`);
    } else if (err instanceof WalletError) {
      process.stderr.write(`${JSON.stringify({ error: err.type, message: err.message, data: err.data })}\n`);
    } else {
      process.stderr.write(`${JSON.stringify({ error: "ERROR", message: err instanceof Error ? err.message : String(err) })}\n`);
    }
    process.exitCode = 1;
  }
}
