/** Keys and signatures: CIP-1852 wallet, CIP-30 signTx / signData, CIP-8 verification. */
export { generateMnemonic, normaliseMnemonic } from "./mnemonic";
export { Wallet, type WalletOptions } from "./wallet";
export { verifyDataSignature, verifyMessageSignature, type DataSignature } from "./data-signature";
export { WalletError, type WalletErrorType } from "./errors";
export { writeKeyFile, readKeyFile, walletFromKeyFile, type KeyFile } from "./key-file";
