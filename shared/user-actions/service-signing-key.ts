/**
 * The service's own Ed25519 key that signs the challenges of user actions and faucet claims (docs/decisions.md#user-action-message): the CIP-1852 payment
 * key of USER_ACTION_SIGNING_MNEMONIC, or of a mnemonic kept in a key file under DATA_DIR (created 0600 on first
 * start). Replicas that share challenges must share the mnemonic. The private key stays inside the wallet module;
 * signatures are hex (64 bytes) over the UTF-8 message.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { generateMnemonic, readKeyFile, verifyMessageSignature, Wallet, writeKeyFile } from "../wallet";

const SIGNING_KEY_FILE = "user-action-signing-key.json";

export class ServiceSigningKey {
  readonly publicKeyHex: string;

  private constructor(private readonly wallet: Wallet) {
    this.publicKeyHex = wallet.paymentPublicKeyHex;
  }

  /** @throws WalletError INVALID_MNEMONIC */
  static fromMnemonic(mnemonic: string): ServiceSigningKey {
    return new ServiceSigningKey(Wallet.fromMnemonic(mnemonic));
  }

  /** The configured mnemonic, else the key file under `dataDir` (created when missing). */
  static load(opts: { mnemonic: string | null; dataDir: string }): ServiceSigningKey {
    if (opts.mnemonic !== null) return ServiceSigningKey.fromMnemonic(opts.mnemonic);
    const path = join(opts.dataDir, SIGNING_KEY_FILE);
    if (!existsSync(path)) writeKeyFile(path, generateMnemonic());
    return ServiceSigningKey.fromMnemonic(readKeyFile(path).mnemonic);
  }

  sign(message: string): string {
    return this.wallet.signMessage(message);
  }

  verify(message: string, signatureHex: string): boolean {
    return verifyMessageSignature(this.publicKeyHex, message, signatureHex);
  }

  toJSON(): Record<string, unknown> {
    return { publicKey: this.publicKeyHex };
  }
}
