/**
 * The item key: an Ed25519 key derived from an item's claiming password, with the batch id and the item's token
 * name as context. The batch datum stores only the key's hash; a claim must be signed by the key. So the password
 * and its plain hashes never reach the chain or the mempool, and a signature binds one transaction only.
 *
 * Derivation: seed = scrypt(NFKC(password), salt, N = 2^15, r = 8, p = 1, 32 bytes) with
 * salt = "cert-anchor/connected-goods/item-key/v1" ‖ 0x00 ‖ batch_id (32 bytes) ‖ token_name; the seed is the
 * Ed25519 private key (RFC 8032 seed). The key hash on chain lets anyone test password guesses offline, so the
 * KDF must be slow and memory-hard (≈ 32 MiB and tens of ms per guess); the per-item salt stops one guess from
 * being tried against every item at once.
 *
 * Invariant: the seed and key live only in private (#) fields; they never appear in errors or output.
 */
import { inspect } from "node:util";
import { CSL } from "../../csl/lib";
import { HEX_PATTERNS } from "../../domain/hex";
import { mergeWitnesses, vkeyWitnessSet } from "../../csl/witnesses";
import { ConnectedGoodsError } from "./errors";
import { runScrypt, type KdfCaller } from "./kdf";

export const ITEM_KEY_DOMAIN = "cert-anchor/connected-goods/item-key/v1";
export const ITEM_KEY_SCRYPT = { N: 2 ** 15, r: 8, p: 1, keyLength: 32 } as const;

export class ItemKey {
  /** 32-byte Ed25519 public key, hex */
  readonly publicKeyHex: string;
  /** blake2b-224 of the public key (56 hex): the item_key_hash in the batch datum */
  readonly keyHash: string;
  readonly #key: CSL.PrivateKey;

  constructor(seed: Uint8Array) {
    this.#key = CSL.PrivateKey.from_normal_bytes(seed);
    const pub = this.#key.to_public();
    this.publicKeyHex = pub.to_hex();
    this.keyHash = pub.hash().to_hex();
  }

  /** CIP-30-style witness set (CBOR hex) with this key's signature over the body exactly as given. */
  signTx(txCborHex: string): string {
    const hash = CSL.FixedTransaction.from_hex(txCborHex).transaction_hash();
    return vkeyWitnessSet([CSL.make_vkey_witness(hash, this.#key)]);
  }

  /** The whole transaction with this key's witness added (body bytes and tx id unchanged). */
  signTxFull(txCborHex: string): string {
    return mergeWitnesses(txCborHex, this.signTx(txCborHex));
  }

  toJSON(): Record<string, unknown> {
    return { publicKeyHex: this.publicKeyHex, keyHash: this.keyHash };
  }

  toString(): string {
    return `ItemKey(${this.keyHash})`;
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

/** The scrypt salt for one item: domain tag ‖ 0x00 ‖ batch id ‖ token name. */
export function itemKeySalt(batchId: string, tokenName: string): Buffer {
  const id = hexBytes(batchId, "batchId");
  const name = hexBytes(tokenName, "tokenName");
  if (id.length !== 32) throw new ConnectedGoodsError("INVALID_CONTEXT", "batch id must be 32 bytes", { batchId });
  if (name.length === 0 || name.length > 32)
    throw new ConnectedGoodsError("INVALID_CONTEXT", "token name must be 1..32 bytes", { tokenName });
  return Buffer.concat([Buffer.from(ITEM_KEY_DOMAIN, "utf8"), Buffer.of(0), id, name]);
}

/**
 * Derives the key of item `tokenName` (hex) of batch `batchId` (hex) from its claiming password; the service
 * passes the request as `caller`, which pays for the run and can abandon it (kdf.ts).
 * @throws ConnectedGoodsError INVALID_PASSWORD (empty), INVALID_CONTEXT, KDF_BUDGET_EXCEEDED; the caller's abort reason
 */
export async function deriveItemKey(password: string, batchId: string, tokenName: string, caller?: KdfCaller): Promise<ItemKey> {
  const normalised = password.normalize("NFKC");
  if (normalised.length === 0) throw new ConnectedGoodsError("INVALID_PASSWORD", "the claiming password is empty");
  const salt = itemKeySalt(batchId, tokenName);
  const seed = await runScrypt(caller, Buffer.from(normalised, "utf8"), salt, ITEM_KEY_SCRYPT);
  try {
    return new ItemKey(seed);
  } finally {
    seed.fill(0);
  }
}

function hexBytes(hex: string, what: string): Buffer {
  if (!HEX_PATTERNS.bytes.test(hex)) throw new ConnectedGoodsError("INVALID_CONTEXT", `${what} must be hex`, { [what]: hex });
  return Buffer.from(hex, "hex");
}
