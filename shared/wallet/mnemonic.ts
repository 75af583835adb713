/** BIP-39 mnemonics (English word list). */
import * as bip39 from "bip39";
import { WalletError } from "./errors";

/** A fresh 24-word mnemonic (256 bits of entropy from the OS RNG). */
export function generateMnemonic(): string {
  return bip39.generateMnemonic(256);
}

/** Normalises whitespace and validates the checksum. @throws WalletError INVALID_MNEMONIC */
export function mnemonicToEntropy(mnemonic: string): Uint8Array {
  const words = normaliseMnemonic(mnemonic);
  if (!bip39.validateMnemonic(words)) {
    // never echo the words: they are the secret
    throw new WalletError("INVALID_MNEMONIC", "mnemonic is not a valid BIP-39 phrase", {
      wordCount: words.split(" ").filter(Boolean).length,
    });
  }
  return Uint8Array.from(Buffer.from(bip39.mnemonicToEntropy(words), "hex"));
}

export function normaliseMnemonic(mnemonic: string): string {
  return String(mnemonic).trim().toLowerCase().split(/\s+/).join(" ");
}
