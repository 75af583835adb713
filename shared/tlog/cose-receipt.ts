/**
 * RFC 9942 §5.2 (RFC9162_SHA256, Receipt of Inclusion): a COSE_Sign1 (RFC 9052 §4.2, tag 18) signed with the log's
 * Ed25519 key (alg EdDSA, -8), protected header {1: alg, 4: kid, 395: vds = 1}, unprotected header
 * {396: {-1: [bstr .cbor [tree_size, leaf_index, [path…]]]}}, payload detached (nil): the signature covers the
 * root the verifier recomputes from the proof, through RFC 9052 §4.4's Sig_structure ["Signature1", protected, h'', root].
 * The kid is the log key's signed-note key ID (4 bytes, big-endian), so a verifier matches it to the log's vkey.
 */
import { ed25519 } from "@noble/curves/ed25519";
import { Tag, decode, encode } from "cbor2";
import { type Result, ok, fail, equalBytes, uint32BE } from "./encoding";
import { TlogError } from "./errors";
import { ED25519_TYPE, type SignerKey, type VerifierKey } from "./note";
import { HASH_SIZE, rootFromInclusionProof } from "./rfc9162";

export const COSE_SIGN1_TAG = 18;
export const HEADER_ALG = 1;
export const HEADER_KID = 4;
export const HEADER_VDS = 395;
export const HEADER_VDP = 396;
export const ALG_EDDSA = -8;
export const VDS_RFC9162_SHA256 = 1;
export const VDP_INCLUSION = -1;

export interface ReceiptInclusion {
  treeSize: number;
  leafIndex: number;
  path: Uint8Array[];
}

/** RFC 9052 §4.4: the bytes an Ed25519 COSE_Sign1 signature covers. */
function toBeSigned(protectedHeader: Uint8Array, payload: Uint8Array): Uint8Array {
  return encode(["Signature1", protectedHeader, new Uint8Array(0), payload]);
}

/** Makes a receipt for leaf `leafHash` at `leafIndex` of the tree of `treeSize`, signing the root its path gives. */
export function makeReceipt(leafHash: Uint8Array, inclusion: ReceiptInclusion, key: SignerKey): Uint8Array {
  if (key.type !== ED25519_TYPE)
    throw new TlogError("TLOG_BAD_KEY", `key ${key.name} has type ${key.type}, not Ed25519 (1)`, { name: key.name });
  const root = rootFromInclusionProof(leafHash, inclusion.leafIndex, inclusion.treeSize, inclusion.path);
  if ("reason" in root) throw new TlogError("TLOG_BAD_ARGUMENT", `the inclusion proof is not valid: ${root.reason}`);
  const protectedHeader = encode(
    new Map<number, unknown>([
      [HEADER_ALG, ALG_EDDSA],
      [HEADER_KID, uint32BE(key.keyId)],
      [HEADER_VDS, VDS_RFC9162_SHA256],
    ]),
  );
  // plain Uint8Arrays: a CBOR encoder writes a subclass (Node's Buffer) as a tagged typed array, not a bstr
  const proof = encode([inclusion.treeSize, inclusion.leafIndex, inclusion.path.map((h) => Uint8Array.from(h))]);
  const unprotected = new Map([[HEADER_VDP, new Map([[VDP_INCLUSION, [proof]]])]]);
  const signature = ed25519.sign(toBeSigned(protectedHeader, root.root), key.seed);
  return encode(new Tag(COSE_SIGN1_TAG, [protectedHeader, unprotected, null, signature]));
}

const isUint = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

function decodeCbor(bytes: Uint8Array): unknown {
  try {
    return decode(bytes, { preferMap: true, rejectDuplicateKeys: true });
  } catch {
    return undefined;
  }
}

/** The receipt's parts, shape-checked: protected bytes and map, its one inclusion proof, and the signature. */
export function parseReceipt(
  bytes: Uint8Array,
): Result<{ protectedHeader: Uint8Array; kid?: Uint8Array; inclusion: ReceiptInclusion; signature: Uint8Array }> {
  const sign1 = decodeCbor(bytes);
  if (!(sign1 instanceof Tag) || Number(sign1.tag) !== COSE_SIGN1_TAG) return fail("a receipt is a COSE_Sign1 tagged 18");
  const parts = sign1.contents;
  if (!Array.isArray(parts) || parts.length !== 4) return fail("a COSE_Sign1 is an array of four items");
  const [protectedHeader, unprotected, payload, signature] = parts as unknown[];
  if (!(protectedHeader instanceof Uint8Array) || !(signature instanceof Uint8Array))
    return fail("the protected header and the signature must be byte strings");
  if (payload !== null) return fail("the payload must be detached (nil): the verifier recomputes the root");
  const header = decodeCbor(protectedHeader);
  if (!(header instanceof Map)) return fail("the protected header is not a CBOR map");
  if (header.get(HEADER_ALG) !== ALG_EDDSA) return fail(`alg (1) must be EdDSA (-8), not ${String(header.get(HEADER_ALG))}`);
  if (header.get(HEADER_VDS) !== VDS_RFC9162_SHA256)
    return fail(`vds (395) must be RFC9162_SHA256 (1), not ${String(header.get(HEADER_VDS))}`);
  const kid = header.get(HEADER_KID);
  if (kid !== undefined && !(kid instanceof Uint8Array)) return fail("kid (4) must be a byte string");
  const proofs = unprotected instanceof Map ? unprotected.get(HEADER_VDP) : undefined;
  const inclusions = proofs instanceof Map ? proofs.get(VDP_INCLUSION) : undefined;
  if (!Array.isArray(inclusions) || inclusions.length === 0)
    return fail("vdp (396) must hold inclusion proofs (-1), an array of byte strings");
  if (inclusions.length !== 1) return fail(`this verifier reads receipts with one inclusion proof, not ${inclusions.length}`);
  const proof = inclusions[0] instanceof Uint8Array ? decodeCbor(inclusions[0]) : undefined;
  if (!Array.isArray(proof) || proof.length !== 3) return fail("an inclusion proof is bstr .cbor [tree_size, leaf_index, inclusion_path]");
  const [treeSize, leafIndex, path] = proof as unknown[];
  if (!isUint(treeSize) || !isUint(leafIndex)) return fail("tree_size and leaf_index must be unsigned integers");
  if (!Array.isArray(path) || !path.every((h): h is Uint8Array => h instanceof Uint8Array && h.length === HASH_SIZE))
    return fail(`inclusion_path must be an array of ${HASH_SIZE}-byte strings`);
  return ok({ protectedHeader, ...(kid === undefined ? {} : { kid }), inclusion: { treeSize, leafIndex, path }, signature });
}

/**
 * RFC 9942 §5.2's order: apply the inclusion proof to the leaf hash, then verify the signature over the root it
 * gives. Returns the proof and that root (which the caller may compare with a checkpoint's).
 */
export function verifyReceipt(
  bytes: Uint8Array,
  leafHash: Uint8Array,
  key: VerifierKey,
): Result<{ inclusion: ReceiptInclusion; root: Uint8Array }> {
  if (key.type !== ED25519_TYPE) return fail(`key ${key.name} has type ${key.type}, not Ed25519 (1)`);
  const parsed = parseReceipt(bytes);
  if (!parsed.ok) return parsed;
  const { protectedHeader, kid, inclusion, signature } = parsed.value;
  if (kid !== undefined && !equalBytes(kid, uint32BE(key.keyId))) return fail(`kid does not name key ${key.name}`);
  const root = rootFromInclusionProof(leafHash, inclusion.leafIndex, inclusion.treeSize, inclusion.path);
  if ("reason" in root) return fail(`the inclusion proof does not apply to the leaf: ${root.reason}`);
  if (signature.length !== 64 || !ed25519.verify(signature, toBeSigned(protectedHeader, root.root), key.publicKey))
    return fail("the signature does not verify over the root the proof gives");
  return ok({ inclusion, root: root.root });
}
