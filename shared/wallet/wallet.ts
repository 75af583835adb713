/**
 * A CIP-1852 software wallet: one account, payment key m/1852'/1815'/account'/0/0 and stake key .../2/0.
 * https://cips.cardano.org/cip/CIP-1852
 *
 * Invariant: key material lives only in private (#) fields. It never appears in errors, toString,
 * JSON or util.inspect output of a Wallet.
 */
import { inspect } from "node:util";
import { CSL } from "../csl/lib";
import { mergeWitnesses, vkeyWitnessSet } from "../csl/witnesses";
import { HEX_PATTERNS, KeyHash } from "../domain/hex";
import { coseSign1, type DataSignature } from "./data-signature";
import { WalletError } from "./errors";
import { mnemonicToEntropy } from "./mnemonic";

const HARDENED = 0x80000000;
const PURPOSE = 1852;
const COIN_TYPE = 1815;
const EXTERNAL_CHAIN = 0;
const STAKE_CHAIN = 2;

export interface WalletOptions {
  /** 0 = testnets (default), 1 = mainnet */
  networkId?: number;
  /** account index (hardened), default 0 */
  account?: number;
}

export class Wallet {
  readonly networkId: number;
  readonly account: number;
  /** bech32 base address (payment key + stake key) */
  readonly address: string;
  /** bech32 enterprise address of the payment key */
  readonly enterpriseAddress: string;
  /** bech32 reward (stake) address */
  readonly rewardAddress: string;
  /** blake2b-224 of the payment public key, 56 hex */
  readonly paymentKeyHash: KeyHash;
  /** blake2b-224 of the stake public key, 56 hex */
  readonly stakeKeyHash: string;
  /** 32-byte Ed25519 payment public key, hex */
  readonly paymentPublicKeyHex: string;
  /** 32-byte Ed25519 stake public key, hex */
  readonly stakePublicKeyHex: string;

  readonly #paymentKey: CSL.PrivateKey;
  readonly #stakeKey: CSL.PrivateKey;

  private constructor(paymentKey: CSL.PrivateKey, stakeKey: CSL.PrivateKey, networkId: number, account: number) {
    this.#paymentKey = paymentKey;
    this.#stakeKey = stakeKey;
    this.networkId = networkId;
    this.account = account;
    const paymentPub = paymentKey.to_public();
    const stakePub = stakeKey.to_public();
    const paymentCred = CSL.Credential.from_keyhash(paymentPub.hash());
    const stakeCred = CSL.Credential.from_keyhash(stakePub.hash());
    this.paymentKeyHash = KeyHash(paymentPub.hash().to_hex());
    this.stakeKeyHash = stakePub.hash().to_hex();
    this.paymentPublicKeyHex = paymentPub.to_hex();
    this.stakePublicKeyHex = stakePub.to_hex();
    this.address = CSL.BaseAddress.new(networkId, paymentCred, stakeCred).to_address().to_bech32();
    this.enterpriseAddress = CSL.EnterpriseAddress.new(networkId, paymentCred).to_address().to_bech32();
    this.rewardAddress = CSL.RewardAddress.new(networkId, stakeCred).to_address().to_bech32();
  }

  /**
   * Derives the account keys from a BIP-39 mnemonic (no passphrase, Icarus master key as CSL does).
   * @throws WalletError INVALID_MNEMONIC, INVALID_OPTIONS
   */
  static fromMnemonic(mnemonic: string, opts: WalletOptions = {}): Wallet {
    const networkId = opts.networkId ?? 0;
    const account = opts.account ?? 0;
    if (networkId !== 0 && networkId !== 1) {
      throw new WalletError("INVALID_OPTIONS", "networkId must be 0 (testnet) or 1 (mainnet)", { networkId });
    }
    if (!Number.isInteger(account) || account < 0 || account >= HARDENED) {
      throw new WalletError("INVALID_OPTIONS", "account must be a non-negative integer below 2^31", { account });
    }
    const root = CSL.Bip32PrivateKey.from_bip39_entropy(mnemonicToEntropy(mnemonic), new Uint8Array());
    const acct = root
      .derive(PURPOSE | HARDENED)
      .derive(COIN_TYPE | HARDENED)
      .derive(account | HARDENED);
    const paymentKey = acct.derive(EXTERNAL_CHAIN).derive(0).to_raw_key();
    const stakeKey = acct.derive(STAKE_CHAIN).derive(0).to_raw_key();
    root.free();
    acct.free();
    return new Wallet(paymentKey, stakeKey, networkId, account);
  }

  /**
   * CIP-30 signTx: the witness set (CBOR hex) with this wallet's vkey witnesses over the body bytes
   * exactly as given (FixedTransaction). The payment key always signs; the stake key signs too when the
   * body needs it (required signer, withdrawal from our reward address, or a certificate naming our stake key).
   * @throws WalletError INVALID_TRANSACTION
   */
  signTx(txCborHex: string): string {
    let fixed: CSL.FixedTransaction;
    try {
      fixed = CSL.FixedTransaction.from_hex(txCborHex);
    } catch {
      throw new WalletError("INVALID_TRANSACTION", "cannot decode the transaction CBOR", { length: txCborHex.length });
    }
    const hash = fixed.transaction_hash();
    const witnesses = [CSL.make_vkey_witness(hash, this.#paymentKey)];
    if (this.#bodyNeedsStakeKey(fixed.body())) witnesses.push(CSL.make_vkey_witness(hash, this.#stakeKey));
    return vkeyWitnessSet(witnesses);
  }

  /** signTx, then the whole transaction with the witnesses merged (body bytes and tx id unchanged). */
  signTxFull(txCborHex: string): string {
    return mergeWitnesses(txCborHex, this.signTx(txCborHex));
  }

  /**
   * CIP-30 signData: COSE_Sign1 over `payloadHex` with the key behind `addressBech32`
   * (default: the base address; our base or enterprise address → payment key, our reward address → stake key).
   * @throws WalletError ADDRESS_NOT_OWNED, INVALID_PAYLOAD
   */
  signData(payloadHex: string, addressBech32: string = this.address): DataSignature {
    if (!HEX_PATTERNS.bytes.test(payloadHex)) {
      throw new WalletError("INVALID_PAYLOAD", "payload must be an even-length hex string", {
        length: payloadHex.length,
      });
    }
    let key: CSL.PrivateKey;
    if (addressBech32 === this.address || addressBech32 === this.enterpriseAddress) key = this.#paymentKey;
    else if (addressBech32 === this.rewardAddress) key = this.#stakeKey;
    else throw new WalletError("ADDRESS_NOT_OWNED", "address does not belong to this wallet", { address: addressBech32 });
    const addressBytes = CSL.Address.from_bech32(addressBech32).to_bytes();
    return coseSign1(key, addressBytes, Uint8Array.from(Buffer.from(payloadHex, "hex")));
  }

  /** A plain Ed25519 signature (64 bytes, hex) of the payment key over the UTF-8 bytes of `message`. */
  signMessage(message: string): string {
    return this.#paymentKey.sign(Buffer.from(message, "utf8")).to_hex();
  }

  #bodyNeedsStakeKey(body: CSL.TransactionBody): boolean {
    const signers = body.required_signers();
    for (let i = 0; signers && i < signers.len(); i++) {
      if (signers.get(i).to_hex() === this.stakeKeyHash) return true;
    }
    const withdrawals = body.withdrawals();
    const rewardAddresses = withdrawals?.keys();
    for (let i = 0; rewardAddresses && i < rewardAddresses.len(); i++) {
      if (rewardAddresses.get(i).payment_cred().to_keyhash()?.to_hex() === this.stakeKeyHash) return true;
    }
    // certificates embed the credential bytes verbatim; a byte search is exact enough for a 28-byte hash
    const certs = body.certs();
    for (let i = 0; certs && i < certs.len(); i++) {
      if (certs.get(i).to_hex().includes(this.stakeKeyHash)) return true;
    }
    return false;
  }

  /** Public view only: addresses and key hashes. */
  toJSON(): Record<string, unknown> {
    return {
      networkId: this.networkId,
      account: this.account,
      address: this.address,
      enterpriseAddress: this.enterpriseAddress,
      rewardAddress: this.rewardAddress,
      paymentKeyHash: this.paymentKeyHash,
      stakeKeyHash: this.stakeKeyHash,
    };
  }

  toString(): string {
    return `Wallet(${this.address})`;
  }

  [inspect.custom](): string {
    return this.toString();
  }
}
