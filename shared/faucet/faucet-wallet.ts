/**
 * The faucet's wallet: FAUCET_MNEMONIC, or on the embedded devnet a key file under DATA_DIR that the start script
 * funds at genesis (`faucetGenesisFunds`). Elsewhere without a mnemonic there is no faucet wallet.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { AppConfig } from "../config/config";
import { generateMnemonic, Wallet, walletFromKeyFile, writeKeyFile } from "../wallet";

const FAUCET_KEY_FILE = "faucet-wallet.json";
/** What a new embedded devnet gives the faucet at genesis: 100 000 test ADA. */
const FAUCET_GENESIS_LOVELACE = 100_000_000_000n;

type FaucetWalletConfig = Pick<AppConfig, "faucet" | "dataDir" | "ogmiosUrl" | "network">;

/** The faucet wallet, or null when none is configured (a real network without FAUCET_MNEMONIC). */
export function faucetWallet(config: FaucetWalletConfig): Wallet | null {
  const networkId = config.network === "mainnet" ? 1 : 0;
  if (config.faucet.mnemonic !== null) return Wallet.fromMnemonic(config.faucet.mnemonic, { networkId });
  if (config.ogmiosUrl !== null) return null;
  const path = join(config.dataDir, FAUCET_KEY_FILE);
  if (!existsSync(path)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeKeyFile(path, generateMnemonic(), { networkId });
  }
  return walletFromKeyFile(path);
}

/**
 * Genesis entries for a NEW embedded devnet so the faucet can pay (scripts/start.ts passes them to
 * createMeshResources as `devnetGenesis`); empty when the faucet is off or the chain is not embedded.
 */
export function faucetGenesisFunds(config: FaucetWalletConfig): { address: string; lovelace: bigint }[] {
  if (!config.faucet.enabled || config.ogmiosUrl !== null) return [];
  const wallet = faucetWallet(config);
  return wallet ? [{ address: wallet.address, lovelace: FAUCET_GENESIS_LOVELACE }] : [];
}
