/**
 * Address and key-hash helpers: bech32 ↔ bytes, the credentials inside an address, enterprise addresses.
 * Ordering note: the ledger sorts withdrawals (and so withdraw-redeemer indices) by reward-account bytes, not by
 * bech32 text — hence `addressBytesHex`.
 */
import { KeyHash, ScriptHash } from "../domain/hex";
import { CslError } from "./errors";
import { CSL } from "./lib";
import { BoundedMemo } from "./memo";
import { withFreed, type Own } from "./scope";

export type Credential = { kind: "key"; hash: KeyHash } | { kind: "script"; hash: ScriptHash };

function parse(bech32: string, own: Own): CSL.Address {
  try {
    return own(CSL.Address.from_bech32(bech32));
  } catch {
    throw new CslError("INVALID_ADDRESS", `not a bech32 Cardano address: ${bech32.slice(0, 120)}`, { address: bech32.slice(0, 120) });
  }
}

function credentialOf(cred: CSL.Credential | undefined, own: Own): Credential | undefined {
  if (!cred) return undefined;
  const key = own(cred.to_keyhash());
  if (key) return { kind: "key", hash: KeyHash(key.to_hex()) };
  const script = own(cred.to_scripthash());
  return script ? { kind: "script", hash: ScriptHash(script.to_hex()) } : undefined;
}

/** True when the text is a bech32 Shelley-era address (payment or reward). */
export function isBech32Address(text: string): boolean {
  try {
    CSL.Address.from_bech32(text).free();
    return true;
  } catch {
    return false;
  }
}

export function addressBytesHex(bech32: string): string {
  return withFreed((own) => Buffer.from(parse(bech32, own).to_bytes()).toString("hex"));
}

/** Addresses whose network id and payment credential a process remembers (every build reads its wallet's). */
const ADDRESS_FACTS_KEPT = 4_096;

const networkIds = new BoundedMemo(ADDRESS_FACTS_KEPT, (bech32) => withFreed((own) => parse(bech32, own).network_id()));
const paymentCredentials = new BoundedMemo(ADDRESS_FACTS_KEPT, (bech32) =>
  withFreed((own) => credentialOf(own(parse(bech32, own).payment_cred()), own)),
);

/** @throws CslError INVALID_ADDRESS (never remembered) */
export function networkIdOfAddress(bech32: string): number {
  return networkIds.get(bech32);
}

/**
 * The payment credential of a base, enterprise or pointer address; undefined for reward addresses. The answer is
 * shared (frozen). @throws CslError INVALID_ADDRESS (never remembered)
 */
export function paymentCredentialOf(bech32: string): Credential | undefined {
  return paymentCredentials.get(bech32);
}

/** The stake credential of a reward address; undefined for other addresses. */
export function rewardCredentialOf(bech32: string): Credential | undefined {
  return withFreed((own) => {
    const reward = own(CSL.RewardAddress.from_address(parse(bech32, own)));
    return reward ? credentialOf(own(reward.payment_cred()), own) : undefined;
  });
}

/** Enterprise address of a payment key hash: where the service pays fee shares, how issuers are shown. */
export function enterpriseAddressOfKeyHash(keyHashHex: string, networkId: number): string {
  return withFreed((own) => {
    const cred = own(CSL.Credential.from_keyhash(own(CSL.Ed25519KeyHash.from_hex(keyHashHex))));
    return own(own(CSL.EnterpriseAddress.new(networkId, cred)).to_address()).to_bech32();
  });
}

/** blake2b-224 of an Ed25519 public key (hex): the key hash the ledger compares with. */
export function keyHashOfPublicKey(publicKeyHex: string): string {
  return withFreed((own) => own(own(CSL.PublicKey.from_bytes(Buffer.from(publicKeyHex, "hex"))).hash()).to_hex());
}
