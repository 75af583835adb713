/**
 * The wallet key file: a JSON document holding the mnemonic, written owner-only (0600) and never over an
 * existing file unless asked. The mnemonic is the secret; nothing here logs or echoes it.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { WalletError } from "./errors";
import { mnemonicToEntropy, normaliseMnemonic } from "./mnemonic";
import { Wallet } from "./wallet";

export interface KeyFile {
  version: 1;
  kind: "cip1852-mnemonic";
  mnemonic: string;
  networkId: number;
  account: number;
}

/** @throws WalletError INVALID_MNEMONIC, KEY_FILE_EXISTS, KEY_FILE_UNREADABLE */
export function writeKeyFile(
  path: string,
  mnemonic: string,
  opts: { networkId?: number; account?: number; overwrite?: boolean } = {},
): Wallet {
  const words = normaliseMnemonic(mnemonic);
  mnemonicToEntropy(words); // validates before anything touches the disk
  const doc: KeyFile = {
    version: 1,
    kind: "cip1852-mnemonic",
    mnemonic: words,
    networkId: opts.networkId ?? 0,
    account: opts.account ?? 0,
  };
  const wallet = Wallet.fromMnemonic(words, { networkId: doc.networkId, account: doc.account });
  try {
    // a new folder for keys is readable by its owner only
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600, flag: opts.overwrite ? "w" : "wx" });
    chmodSync(path, 0o600); // also when overwriting a file created with a wider mode
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") throw new WalletError("KEY_FILE_EXISTS", "key file already exists (use overwrite to replace it)", { path });
    throw new WalletError("KEY_FILE_UNREADABLE", `cannot write key file: ${code ?? "error"}`, { path });
  }
  return wallet;
}

/** @throws WalletError KEY_FILE_UNREADABLE, INVALID_MNEMONIC */
export function readKeyFile(path: string): KeyFile {
  let doc: Partial<KeyFile>;
  try {
    doc = JSON.parse(readFileSync(path, "utf8")) as Partial<KeyFile>;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new WalletError("KEY_FILE_UNREADABLE", `cannot read key file: ${code ?? "not JSON"}`, { path });
  }
  if (doc.version !== 1 || doc.kind !== "cip1852-mnemonic" || typeof doc.mnemonic !== "string") {
    throw new WalletError("KEY_FILE_UNREADABLE", "not a cip1852-mnemonic key file (version 1)", { path });
  }
  return { version: 1, kind: doc.kind, mnemonic: doc.mnemonic, networkId: Number(doc.networkId ?? 0), account: Number(doc.account ?? 0) };
}

export function walletFromKeyFile(path: string): Wallet {
  const doc = readKeyFile(path);
  return Wallet.fromMnemonic(doc.mnemonic, { networkId: doc.networkId, account: doc.account });
}
