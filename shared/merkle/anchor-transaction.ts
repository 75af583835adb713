/**
 * Offline check that a proof's anchoring transaction, as carried in the proof (`transactionCbor`), anchors the
 * proof's root (docs/merkle-batches.md#checking-the-anchoring-transaction). Decoding is CSL's; what is checked:
 * 1. the transaction id is BLAKE2b-256 of the transaction body's bytes as carried (so the body is the one the chain
 *    knows by that id);
 * 2. auxiliary data, if any, hashes to the body's auxiliary-data hash;
 * 3. a state redeemer of the transaction carries the certificates, and an inline state datum of the body's outputs
 *    commits to them (`certificate_data_hash` = SHA-256 of their bytes, docs/protocol.md#certificate-data-hash):
 *    the redeemers sit in the witness set, outside the body, and this datum is how the body binds them;
 * 4. one of those certificates has the root as hash, the tree scheme as algorithm, and metadata naming the proof's
 *    tree id and size; the tree id is the one the root and size give.
 */
import { CSL } from "../csl/lib";
import { parseMetadataObject } from "../domain/certificate-metadata";
import {
  blake2b,
  certificateDataHash,
  dataFromCborHex,
  decodeStateDatum,
  decodeStateRedeemer,
  joinMetadataChunks,
  type OnchainCertificate,
} from "../protocol";
import type { ProofCheck } from "./inclusion-proof";
import { MERKLE_SCHEME } from "./merkle-tree";
import { treeIdOf } from "./tree-store";

const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const HASH_HEX = /^[0-9a-fA-F]{64}$/;

const fail = (reason: string): ProofCheck => ({ valid: false, reason });

/** The certificate lists of the transaction's state redeemers (redeemers that are not state redeemers are skipped). */
function redeemerCertificates(tx: CSL.FixedTransaction): OnchainCertificate[][] {
  const redeemers = tx.witness_set().redeemers();
  const lists: OnchainCertificate[][] = [];
  for (let i = 0; redeemers && i < redeemers.len(); i++) {
    try {
      const r = decodeStateRedeemer(dataFromCborHex(redeemers.get(i).data().to_hex()));
      if (r.purpose === "MINT_STATE" || r.purpose === "UPDATE_STATE") lists.push([...r.certificates]);
    } catch {
      // another script's redeemer
    }
  }
  return lists;
}

/** The `certificate_data_hash` of every inline state datum among the body's outputs. */
function committedCertificateHashes(tx: CSL.FixedTransaction): Set<string> {
  const outputs = tx.body().outputs();
  const hashes = new Set<string>();
  for (let i = 0; i < outputs.len(); i++) {
    const datum = outputs.get(i).plutus_data();
    if (!datum) continue;
    try {
      hashes.add(decodeStateDatum(dataFromCborHex(datum.to_hex())).certificateDataHash.toLowerCase());
    } catch {
      // not a state datum
    }
  }
  return hashes;
}

/** The tree a batch certificate's metadata names, if it names one. */
function treeOfCertificate(c: OnchainCertificate): { treeId: unknown; leafCount: unknown } | undefined {
  const merkle = parseMetadataObject(joinMetadataChunks(c.extra))?.["merkle"];
  return merkle !== null && typeof merkle === "object" && !Array.isArray(merkle)
    ? (merkle as { treeId: unknown; leafCount: unknown })
    : undefined;
}

/**
 * Checks the proof's `transactionCbor` against its `transactionHash`, `root`, `treeId` and `treeSize`.
 * Never throws; the reason names the first thing that does not hold.
 */
export function checkAnchorTransaction(proof: Record<string, unknown>): ProofCheck {
  const { transactionCbor, transactionHash, root, treeSize, treeId } = proof;
  if (typeof transactionCbor !== "string" || !HEX.test(transactionCbor)) return fail("transactionCbor must be even-length hex");
  if (typeof transactionHash !== "string" || !HASH_HEX.test(transactionHash)) return fail("transactionHash must be 64 hex digits");
  if (typeof root !== "string" || !HASH_HEX.test(root)) return fail("root must be 64 hex digits");
  if (typeof treeSize !== "number" || !Number.isSafeInteger(treeSize) || treeSize < 1) return fail("treeSize must be a positive integer");
  if (typeof treeId !== "string" || treeId !== treeIdOf(Buffer.from(root, "hex"), treeSize))
    return fail("treeId is not the id of this root and treeSize");

  let tx: CSL.FixedTransaction;
  try {
    tx = CSL.FixedTransaction.from_hex(transactionCbor);
  } catch (err) {
    return fail(`transactionCbor is not a Cardano transaction (${err instanceof Error ? err.message : String(err)})`);
  }
  try {
    const bodyHash = blake2b(tx.raw_body(), 32).toString("hex");
    if (bodyHash !== transactionHash.toLowerCase())
      return fail(`the transaction body hashes to ${bodyHash}, not to transactionHash ${transactionHash.toLowerCase()}`);

    const auxHash = tx.body().auxiliary_data_hash()?.to_hex();
    const rawAux = tx.raw_auxiliary_data();
    if (auxHash !== undefined || rawAux !== undefined) {
      if (auxHash === undefined || rawAux === undefined)
        return fail("the transaction's auxiliary data and the body's auxiliary-data hash do not go together");
      const computed = blake2b(rawAux, 32).toString("hex");
      if (computed !== auxHash) return fail(`the auxiliary data hashes to ${computed}, not to the body's auxiliary-data hash ${auxHash}`);
    }

    const committed = committedCertificateHashes(tx);
    const lists = redeemerCertificates(tx).filter((certs) => committed.has(certificateDataHash(certs)));
    if (lists.length === 0)
      return fail("no state redeemer of the transaction holds certificates that a state datum in its body commits to");
    const rootHex = root.toLowerCase();
    const anchoring = lists.flat().filter((c) => c.hash.toLowerCase() === rootHex && c.algorithm === MERKLE_SCHEME);
    if (anchoring.length === 0)
      return fail(`the transaction anchors no certificate of the root ${rootHex} with algorithm ${MERKLE_SCHEME}`);
    const named = anchoring.some((c) => {
      const tree = treeOfCertificate(c);
      return tree?.treeId === treeId && tree.leafCount === treeSize;
    });
    if (!named) return fail(`the root's certificate does not name tree ${treeId} of ${treeSize} leaves in its metadata`);
    return { valid: true };
  } catch (err) {
    return fail(`the transaction could not be read (${err instanceof Error ? err.message : String(err)})`);
  }
}
