/**
 * CIP-30 signData / CIP-8 message signing: COSE_Sign1 with the address in the protected header,
 * plus a COSE_Key carrying the Ed25519 public key. https://cips.cardano.org/cip/CIP-0030 , CIP-0008.
 */
import * as MS from "@emurgo/cardano-message-signing-nodejs";
import { CSL } from "../csl/lib";
import { HEX_PATTERNS, HexBytes } from "../domain/hex";

/** COSE key labels (RFC 8152 §7, §13.2). */
const KEY_CRV = -1;
const KEY_X = -2;
const CRV_ED25519 = 6;

export interface DataSignature {
  /** COSE_Sign1 CBOR hex */
  signature: string;
  /** COSE_Key CBOR hex */
  key: string;
}

function negLabel(n: number): MS.Label {
  return MS.Label.new_int(MS.Int.new_negative(MS.BigNum.from_str(String(-n))));
}

/** @internal used by Wallet.signData; the key never leaves the wallet module. */
export function coseSign1(key: CSL.PrivateKey, addressBytes: Uint8Array, payload: Uint8Array): DataSignature {
  const protectedHeaders = MS.HeaderMap.new();
  protectedHeaders.set_algorithm_id(MS.Label.from_algorithm_id(MS.AlgorithmId.EdDSA));
  protectedHeaders.set_header(MS.Label.new_text("address"), MS.CBORValue.new_bytes(addressBytes));
  const unprotected = MS.HeaderMap.new();
  unprotected.set_header(MS.Label.new_text("hashed"), MS.CBORValue.new_special(MS.CBORSpecial.new_bool(false)));
  const builder = MS.COSESign1Builder.new(MS.Headers.new(MS.ProtectedHeaderMap.new(protectedHeaders), unprotected), payload, false);
  const toSign = builder.make_data_to_sign().to_bytes();
  const cose = builder.build(key.sign(toSign).to_bytes());

  const coseKey = MS.COSEKey.new(MS.Label.from_key_type(MS.KeyType.OKP));
  coseKey.set_algorithm_id(MS.Label.from_algorithm_id(MS.AlgorithmId.EdDSA));
  coseKey.set_header(negLabel(KEY_CRV), MS.CBORValue.new_int(MS.Int.new_i32(CRV_ED25519)));
  coseKey.set_header(negLabel(KEY_X), MS.CBORValue.new_bytes(key.to_public().as_bytes()));
  return { signature: hex(cose.to_bytes()), key: hex(coseKey.to_bytes()) };
}

/**
 * Verifies a CIP-30 signData result. True only when all hold:
 * the Ed25519 signature verifies over the Sig_structure; the COSE key is an OKP/Ed25519 key whose hash equals
 * the address's key credential (payment credential; stake credential for reward addresses); the protected
 * "address" header equals `address`; the algorithm is EdDSA; the payload is not pre-hashed; and, when
 * `payloadHex` is given, the signed payload equals it. Malformed input gives false, never a throw.
 */
/** Checks a plain Ed25519 signature (64 bytes, hex) of `publicKeyHex` over the UTF-8 bytes of `message`. */
export function verifyMessageSignature(publicKeyHex: string, message: string, signatureHex: string): boolean {
  try {
    if (!/^[0-9a-fA-F]{128}$/.test(signatureHex)) return false;
    return CSL.PublicKey.from_hex(publicKeyHex).verify(Buffer.from(message, "utf8"), CSL.Ed25519Signature.from_hex(signatureHex));
  } catch {
    return false;
  }
}

export function verifyDataSignature(input: { signature: string; key: string; payloadHex?: string; address: string }): boolean {
  try {
    const cose = MS.COSESign1.from_bytes(bytes(input.signature));
    const coseKey = MS.COSEKey.from_bytes(bytes(input.key));

    if (coseKey.key_type().as_int()?.as_i32() !== 1 /* OKP */) return false;
    const crv = coseKey.header(negLabel(KEY_CRV))?.as_int()?.as_i32();
    if (crv !== undefined && crv !== CRV_ED25519) return false;
    const x = coseKey.header(negLabel(KEY_X))?.as_bytes();
    if (!x || x.length !== 32) return false;
    const publicKey = CSL.PublicKey.from_bytes(x);

    const headers = cose.headers();
    const protectedMap = headers.protected().deserialized_headers();
    if (protectedMap.algorithm_id()?.as_int()?.as_i32() !== -8 /* EdDSA */) return false;
    const hashed = headers.unprotected().header(MS.Label.new_text("hashed"))?.as_special()?.as_bool();
    if (hashed === true) return false; // pre-hashed payloads are not supported

    const address = CSL.Address.from_bech32(input.address);
    const headerAddress = protectedMap.header(MS.Label.new_text("address"))?.as_bytes();
    if (!headerAddress || hex(headerAddress) !== hex(address.to_bytes())) return false;

    const credential = CSL.RewardAddress.from_address(address)?.payment_cred() ?? address.payment_cred();
    const keyHash = credential?.to_keyhash();
    if (!keyHash || keyHash.to_hex() !== publicKey.hash().to_hex()) return false;

    const payload = cose.payload();
    if (!payload) return false;
    if (input.payloadHex !== undefined && hex(payload) !== HexBytes.parse(input.payloadHex)) return false;

    const signature = CSL.Ed25519Signature.from_bytes(cose.signature());
    return publicKey.verify(cose.signed_data().to_bytes(), signature);
  } catch {
    return false;
  }
}

function hex(b: Uint8Array): string {
  return Buffer.from(b).toString("hex");
}

function bytes(h: string): Uint8Array {
  if (h === "" || !HEX_PATTERNS.bytes.test(h)) throw new Error("not hex");
  return Uint8Array.from(Buffer.from(h, "hex"));
}
