/**
 * The service wallet of an embedded devnet: SERVICE_MNEMONIC when set, else the key file
 * `DATA_DIR/service-wallet.json` (created on first start, mode 0600, the same format `npm run wallet` reads, so
 * `npm run wallet -- sign-tx --key-file data/service-wallet.json` signs with it). The mnemonic is never logged.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { generateMnemonic, Wallet, walletFromKeyFile, writeKeyFile } from "../wallet";

export const SERVICE_WALLET_FILE = "service-wallet.json";

export interface ServiceWallet {
  wallet: Wallet;
  /** where the keys came from: the environment, a key file created now, or an existing key file */
  source: "SERVICE_MNEMONIC" | "created" | "key-file";
  /** the key file (null with SERVICE_MNEMONIC) */
  keyFile: string | null;
}

/** @throws WalletError INVALID_MNEMONIC, KEY_FILE_UNREADABLE */
export function loadOrCreateServiceWallet(opts: { dataDir: string; mnemonic: string | null; networkId?: number }): ServiceWallet {
  const networkId = opts.networkId ?? 0;
  if (opts.mnemonic !== null)
    return { wallet: Wallet.fromMnemonic(opts.mnemonic, { networkId }), source: "SERVICE_MNEMONIC", keyFile: null };
  const keyFile = join(opts.dataDir, SERVICE_WALLET_FILE);
  if (existsSync(keyFile)) return { wallet: walletFromKeyFile(keyFile), source: "key-file", keyFile };
  mkdirSync(opts.dataDir, { recursive: true });
  return { wallet: writeKeyFile(keyFile, generateMnemonic(), { networkId }), source: "created", keyFile };
}
