/**
 * The service's own Ed25519 key that signs the challenges of user actions and faucet claims (decisions.md "User
 * actions"): the CIP-1852 payment key of USER_ACTION_SIGNING_MNEMONIC, or of a mnemonic kept in a key file under
 * DATA_DIR (created 0600 on first start). Replicas that share challenges must share the mnemonic.
 * The private key never leaves this module; signatures are hex (64 bytes) over the UTF-8 message.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CSL } from "../csl/lib";
import { generateMnemonic, readKeyFile, writeKeyFile } from "../wallet";
import { mnemonicToEntropy } from "../wallet/mnemonic";

const HARDENED = 0x80000000;
export const SIGNING_KEY_FILE = "user-action-signing-key.json";

export class ServiceSigningKey {
  readonly #key: CSL.PrivateKey;
  readonly publicKeyHex: string;

  private constructor(key: CSL.PrivateKey) {
    this.#key = key;
    this.publicKeyHex = key.to_public().to_hex();
  }

  /** @throws WalletError INVALID_MNEMONIC */
  static fromMnemonic(mnemonic: string): ServiceSigningKey {
    const root = CSL.Bip32PrivateKey.from_bip39_entropy(mnemonicToEntropy(mnemonic), new Uint8Array());
    const key = root
      .derive(1852 | HARDENED)
      .derive(1815 | HARDENED)
      .derive(0 | HARDENED)
      .derive(0)
      .derive(0)
      .to_raw_key();
    root.free();
    return new ServiceSigningKey(key);
  }

  /** The configured mnemonic, else the key file under `dataDir` (created when missing). */
  static load(opts: { mnemonic: string | null; dataDir: string }): ServiceSigningKey {
    if (opts.mnemonic !== null) return ServiceSigningKey.fromMnemonic(opts.mnemonic);
    const path = join(opts.dataDir, SIGNING_KEY_FILE);
    if (!existsSync(path)) writeKeyFile(path, generateMnemonic());
    return ServiceSigningKey.fromMnemonic(readKeyFile(path).mnemonic);
  }

  sign(message: string): string {
    return this.#key.sign(Buffer.from(message, "utf8")).to_hex();
  }

  verify(message: string, signatureHex: string): boolean {
    try {
      if (!/^[0-9a-fA-F]{128}$/.test(signatureHex)) return false;
      return this.#key.to_public().verify(Buffer.from(message, "utf8"), CSL.Ed25519Signature.from_hex(signatureHex));
    } catch {
      return false;
    }
  }

  toJSON(): Record<string, unknown> {
    return { publicKey: this.publicKeyHex };
  }
}
