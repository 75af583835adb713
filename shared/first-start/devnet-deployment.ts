/**
 * The embedded devnet's deployment, fixed before anything runs: the service wallet is funded at genesis, and the
 * proxy's one-shot output is that genesis output. So the deployment parameters (and every script hash after them)
 * are known before the services start, and the indexer decodes the `init` transaction from the first block.
 *
 * Genesis outputs (shared/devnet/genesis.ts): one per address, id = devnet digest of the address bytes, index 0.
 * The wallet gets two: its base address (the one-shot, which also pays the protocol transactions) and its
 * enterprise address (a reserve the bootstrap splits into spare UTxOs at the base address before `init`).
 */
import { addressBytesHex } from "../csl/address";
import { devnetDigest } from "../devnet/ledger-digest";
import { TxHash } from "../domain/hex";
import type { ProtocolConfig } from "../config/config";
import type { Wallet } from "../wallet";

const SERVICE_GENESIS_LOVELACE = 100_000_000_000n; // 100 000 ADA: the one-shot output
const SERVICE_RESERVE_LOVELACE = 10_000_000_000n; // 10 000 ADA: split into spare UTxOs

export interface GenesisFundSpec {
  address: string;
  lovelace: bigint;
}

/** The pseudo-transaction id of the genesis output funding `address`. */
export function genesisTxIdOf(address: string): TxHash {
  return TxHash(devnetDigest(Buffer.from(addressBytesHex(address), "hex")));
}

/** Genesis funds of the service wallet. */
export function serviceGenesisFunds(wallet: Wallet): GenesisFundSpec[] {
  return [
    { address: wallet.address, lovelace: SERVICE_GENESIS_LOVELACE },
    { address: wallet.enterpriseAddress, lovelace: SERVICE_RESERVE_LOVELACE },
  ];
}

/** The deployment parameters: one-shot = the base address's genesis output; the wallet administers everything. */
export function devnetProtocolConfig(wallet: Wallet): ProtocolConfig {
  return {
    proxyOneShot: { txHash: genesisTxIdOf(wallet.address), index: 0 },
    bootstrapAdministrators: [wallet.paymentKeyHash],
    serviceKeyHash: wallet.paymentKeyHash,
  };
}

/** True when a stored chain's genesis funds the wallet's one-shot (a chain created before the bootstrap does not). */
export function genesisFundsWallet(genesis: readonly GenesisFundSpec[], wallet: Wallet): boolean {
  return genesis.some((g) => g.address === wallet.address);
}
