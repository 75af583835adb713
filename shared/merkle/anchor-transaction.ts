/**
 * Offline check that a proof's anchoring transaction, as carried in the proof (`transactionCbor`), anchors the
 * proof's root through the protocol deployment the proof names (docs/merkle-batches.md#checking-the-anchoring-transaction).
 * Decoding is CSL's; what is checked, each link binding the next to the transaction id:
 * 1. the transaction id is BLAKE2b-256 of the transaction body's bytes as carried (so the body is the one the chain
 *    knows by that id);
 * 2. auxiliary data, if any, hashes to the body's auxiliary-data hash;
 * 3. the transaction is not marked invalid (whose outputs never exist), and the witness set's redeemers and datums,
 *    as carried, with the proof's `languageViews`, hash to the body's `script_data_hash`: the redeemers are the ones
 *    the ledger ran the scripts with, not ones the prover wrote;
 * 4. an output at the proxy address of the deployment (`proxyPolicyId`, payment credential = that script) holds the
 *    state token its inline state datum names: only the deployment's validators put such an output on chain;
 * 5. a state redeemer (withdrawal, `MINT_STATE`/`UPDATE_STATE`) carries the certificates that datum commits to
 *    (`certificate_data_hash`, docs/protocol.md#certificate-data-hash), and no other redeemer carries a different
 *    list with the same commitment (the commitment concatenates without lengths, so it alone does not fix the split);
 * 6. one of those certificates has the root as hash, the proof's scheme as algorithm, and metadata naming the proof's
 *    tree id and size (a batch: the tree id is the one the root and size give) or the log's origin and the
 *    checkpoint's size (a transparency-log checkpoint);
 * 7. that certificate's issuer is among the body's required signers, and the witness set holds the issuer's valid
 *    signature of the transaction id.
 */
import { CSL } from "../csl/lib";
import { rawScriptData } from "../csl/script-data";
import { withFreed } from "../csl/scope";
import { readHeader, skipItem } from "../csl/cbor";
import { parseMetadataObject } from "../domain/certificate-metadata";
import { DataHash, HEX_PATTERNS, PolicyId, TxHash } from "../domain/hex";
import {
  blake2b,
  certificateDataHash,
  dataFromCborHex,
  decodeStateDatum,
  decodeStateRedeemer,
  joinMetadataChunks,
  type OnchainCertificate,
} from "../protocol";
import { TLOG_CHECKPOINT_SCHEME } from "../transparency-log/log-entries";
import { MERKLE_SCHEME } from "./merkle-tree";
import { treeIdOf } from "./tree-store";

/** Non-empty even-length hex. */
const isHex = (v: unknown): v is string => typeof v === "string" && v !== "" && HEX_PATTERNS.bytes.test(v);

/** What a transaction that holds binds the root to: who signed for it, and under which deployment. */
export interface AnchorBinding {
  /** payment key hash of the root certificate's issuer, who signed the transaction */
  issuer: string;
  /** the deployment's proxy policy id, whose state output commits to the certificates */
  deployment: string;
}

export type AnchorCheck = ({ valid: true } & AnchorBinding) | { valid: false; reason: string };

export interface AnchorCheckOptions {
  /** the deployment the checker requires (its proxy policy id); absent: the one the proof names */
  deployment?: PolicyId;
}

const fail = (reason: string): AnchorCheck => ({ valid: false, reason });
const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The certificate lists of the transaction's withdrawal redeemers that are state redeemers carrying certificates. */
function redeemerCertificates(tx: CSL.FixedTransaction): OnchainCertificate[][] {
  const redeemers = tx.witness_set().redeemers();
  const lists: OnchainCertificate[][] = [];
  for (let i = 0; redeemers && i < redeemers.len(); i++) {
    const redeemer = redeemers.get(i);
    // The state redeemer is the one of the zero withdrawal (docs/protocol.md#state).
    if (redeemer.tag().kind() !== CSL.RedeemerTagKind.Reward) continue;
    try {
      const r = decodeStateRedeemer(dataFromCborHex(redeemer.data().to_hex()));
      if (r.purpose === "MINT_STATE" || r.purpose === "UPDATE_STATE") lists.push([...r.certificates]);
    } catch {
      // another script's redeemer
    }
  }
  return lists;
}

/**
 * The `certificate_data_hash` of every state output of the deployment: an output whose address has the proxy script
 * as payment credential, holding exactly one token of the proxy policy named as its inline state datum's id. When
 * there is none, the reason names the first thing missing.
 */
function committedCertificateHashes(tx: CSL.FixedTransaction, deployment: string): { hashes: Set<string> } | { reason: string } {
  const outputs = tx.body().outputs();
  const hashes = new Set<string>();
  let stateDatums = 0;
  let atProxy = 0;
  const policy = CSL.ScriptHash.from_hex(deployment);
  for (let i = 0; i < outputs.len(); i++) {
    const out = outputs.get(i);
    const datum = out.plutus_data();
    if (!datum) continue;
    let id: string;
    let committed: string;
    try {
      const state = decodeStateDatum(dataFromCborHex(datum.to_hex()));
      id = state.id;
      committed = state.certificateDataHash;
    } catch {
      continue; // not a state datum
    }
    stateDatums++;
    if (out.address().payment_cred()?.to_scripthash()?.to_hex() !== deployment) continue;
    atProxy++;
    const quantity = out
      .amount()
      .multiasset()
      ?.get_asset(policy, CSL.AssetName.new(Buffer.from(id, "hex")));
    if (quantity?.to_str() !== "1") continue;
    hashes.add(committed);
  }
  if (hashes.size > 0) return { hashes };
  if (stateDatums === 0) return { reason: "no output of the transaction holds an inline state datum" };
  if (atProxy === 0)
    return {
      reason: `no state datum of the transaction sits at the proxy address of deployment ${deployment} (payment credential: that script)`,
    };
  return { reason: `the state datum at the proxy address of deployment ${deployment} is in an output without its state token` };
}

/** The tree a batch certificate's metadata names, if it names one. */
function treeOfCertificate(c: OnchainCertificate): { treeId: unknown; leafCount: unknown } | undefined {
  const merkle = parseMetadataObject(joinMetadataChunks(c.extra))?.["merkle"];
  return merkle !== null && typeof merkle === "object" && !Array.isArray(merkle)
    ? (merkle as { treeId: unknown; leafCount: unknown })
    : undefined;
}

/** The log checkpoint a checkpoint certificate's metadata names, if it names one. */
function checkpointOfCertificate(c: OnchainCertificate): { origin: unknown; size: unknown } | undefined {
  const tlog = parseMetadataObject(joinMetadataChunks(c.extra))?.["tlog"];
  return tlog !== null && typeof tlog === "object" && !Array.isArray(tlog) ? (tlog as { origin: unknown; size: unknown }) : undefined;
}

/** What the root's certificate must name: the tree (a batch proof) or the log's checkpoint (a log proof). */
function rootNaming(
  proof: Record<string, unknown>,
  root: string,
  treeSize: number,
): { scheme: string; names: (c: OnchainCertificate) => boolean; what: string } | { reason: string } {
  if (proof["scheme"] === TLOG_CHECKPOINT_SCHEME) {
    const origin = proof["origin"];
    if (typeof origin !== "string") return { reason: "origin must name the log" };
    return {
      scheme: TLOG_CHECKPOINT_SCHEME,
      names: (c) => {
        const named = checkpointOfCertificate(c);
        return named?.origin === origin && named.size === treeSize;
      },
      what: `the checkpoint of ${origin} at size ${treeSize}`,
    };
  }
  const treeId = proof["treeId"];
  if (typeof treeId !== "string" || treeId !== treeIdOf(Buffer.from(root, "hex"), treeSize))
    return { reason: "treeId is not the id of this root and treeSize" };
  return {
    scheme: MERKLE_SCHEME,
    names: (c) => {
      const tree = treeOfCertificate(c);
      return tree?.treeId === treeId && tree.leafCount === treeSize;
    },
    what: `tree ${treeId} of ${treeSize} leaves`,
  };
}

/** Whether the bytes are exactly one CBOR map. */
function isOneCborMap(bytes: Uint8Array): boolean {
  try {
    return bytes.length > 0 && readHeader(bytes, 0).major === 5 && skipItem(bytes, 0) === bytes.length;
  } catch {
    return false;
  }
}

/**
 * The hash the ledger's rule gives for the transaction's script data with these language views: BLAKE2b-256 of the
 * witness set's redeemers ‖ datums (when there are any) ‖ language views, the first two exactly as carried.
 * Undefined when the transaction carries no redeemers.
 */
export function scriptDataHashWith(txCborHex: string, languageViews: Uint8Array): string | undefined {
  const { redeemers, datums } = rawScriptData(txCborHex);
  if (!redeemers) return undefined;
  return blake2b(Buffer.concat([redeemers, ...(datums ? [datums] : []), languageViews]), 32).toString("hex");
}

/**
 * Which of `candidates` (encoded language views, see `languageViews` in shared/csl/script-data.ts) reproduces the
 * transaction's `script_data_hash`, as hex; undefined when none does or the transaction has no script data.
 */
export function matchingLanguageViews(txCborHex: string, candidates: readonly Uint8Array[]): string | undefined {
  const expected = withFreed((own) => {
    const tx = own(CSL.FixedTransaction.from_hex(txCborHex));
    return own(own(tx.body()).script_data_hash())?.to_hex();
  });
  if (expected === undefined) return undefined;
  const found = candidates.find((v) => scriptDataHashWith(txCborHex, v) === expected);
  return found && Buffer.from(found).toString("hex");
}

/** Whether the witness set holds a valid signature of `txId` by a key hashing to `keyHash`. */
function signedBy(tx: CSL.FixedTransaction, keyHash: string, txId: Uint8Array): boolean {
  const vkeys = tx.witness_set().vkeys();
  for (let i = 0; vkeys && i < vkeys.len(); i++) {
    const w = vkeys.get(i);
    const key = w.vkey().public_key();
    if (key.hash().to_hex() === keyHash && key.verify(txId, w.signature())) return true;
  }
  return false;
}

/**
 * Checks the proof's `transactionCbor` against its `transactionHash`, `languageViews`, `proxyPolicyId`, `root`,
 * `treeSize` and `treeId` (a batch proof) or `origin` (a log proof), and, when given, the deployment the checker
 * requires. Never throws; the reason names
 * the first thing that does not hold.
 */
export function checkAnchorTransaction(proof: Record<string, unknown>, opts: AnchorCheckOptions = {}): AnchorCheck {
  const { transactionCbor, transactionHash, root, treeSize, languageViews, proxyPolicyId } = proof;
  if (!isHex(transactionCbor)) return fail("transactionCbor must be even-length hex");
  const txHash = TxHash.parse(transactionHash);
  if (txHash === undefined) return fail("transactionHash must be 64 hex digits");
  if (typeof root !== "string" || !HEX_PATTERNS.hash32.test(root)) return fail("root must be 64 hex digits");
  if (typeof treeSize !== "number" || !Number.isSafeInteger(treeSize) || treeSize < 1) return fail("treeSize must be a positive integer");
  const naming = rootNaming(proof, root, treeSize);
  if ("reason" in naming) return fail(naming.reason);
  if (!isHex(languageViews) || !isOneCborMap(Buffer.from(languageViews, "hex")))
    return fail("languageViews must be hex of one CBOR map (the cost models the transaction's script_data_hash covers)");
  // lowercase, as the service answers it: a proof naming it otherwise was not written by the service
  if (!PolicyId.is(proxyPolicyId)) return fail("proxyPolicyId must be 56 lowercase hex digits (the deployment's proxy policy id)");
  if (opts.deployment !== undefined && opts.deployment !== proxyPolicyId)
    return fail(`the proof names deployment ${proxyPolicyId}, not the required deployment ${opts.deployment}`);

  let tx: CSL.FixedTransaction;
  try {
    tx = CSL.FixedTransaction.from_hex(transactionCbor);
  } catch (err) {
    return fail(`transactionCbor is not a Cardano transaction (${errorText(err)})`);
  }
  try {
    const txId = blake2b(tx.raw_body(), 32);
    const bodyHash = txId.toString("hex");
    if (bodyHash !== txHash) return fail(`the transaction body hashes to ${bodyHash}, not to transactionHash ${txHash}`);

    const auxHash = tx.body().auxiliary_data_hash()?.to_hex();
    const rawAux = tx.raw_auxiliary_data();
    if (auxHash !== undefined || rawAux !== undefined) {
      if (auxHash === undefined || rawAux === undefined)
        return fail("the transaction's auxiliary data and the body's auxiliary-data hash do not go together");
      const computed = blake2b(rawAux, 32).toString("hex");
      if (computed !== auxHash) return fail(`the auxiliary data hashes to ${computed}, not to the body's auxiliary-data hash ${auxHash}`);
    }

    // A transaction marked invalid is on chain with its collateral taken, but its outputs never existed.
    if (!tx.is_valid()) return fail("the transaction is marked invalid: its scripts failed, only its collateral was taken");

    const scriptDataHash = tx.body().script_data_hash()?.to_hex();
    if (scriptDataHash === undefined)
      return fail("the transaction body has no script_data_hash: nothing binds the witness set's redeemers to the transaction id");
    const computed = scriptDataHashWith(transactionCbor, Buffer.from(languageViews, "hex"));
    if (computed === undefined) return fail("the transaction's witness set carries no redeemers");
    if (computed !== scriptDataHash)
      return fail(
        `the witness set's redeemers and datums with languageViews hash to ${computed}, not to the body's script_data_hash ${scriptDataHash}`,
      );

    const committed = committedCertificateHashes(tx, proxyPolicyId);
    if ("reason" in committed) return fail(committed.reason);
    const lists = redeemerCertificates(tx).filter((certs) => committed.hashes.has(certificateDataHash(certs)));
    if (lists.length === 0)
      return fail("no state redeemer of the transaction holds certificates that the deployment's state datum commits to");
    const distinct = new Set(lists.map((certs) => JSON.stringify(certs)));
    if (distinct.size > 1)
      return fail(
        "several state redeemers hold different certificates with the same commitment: which ones the validator read is not known",
      );
    const certs = lists[0]!;

    // Decoded certificates hold canonical (lowercase) hex, as the Plutus Data model keeps it.
    const rootHex = DataHash(root);
    const anchoring = certs.filter((c) => c.hash === rootHex && c.algorithm === naming.scheme);
    if (anchoring.length === 0)
      return fail(`the transaction anchors no certificate of the root ${rootHex} with algorithm ${naming.scheme}`);
    const named = anchoring.filter(naming.names);
    if (named.length === 0) return fail(`the root's certificate does not name ${naming.what} in its metadata`);

    const required = tx.body().required_signers();
    const requiredHashes = new Set<string>();
    for (let i = 0; required && i < required.len(); i++) requiredHashes.add(required.get(i).to_hex());
    const issuers = [...new Set(named.map((c) => c.issuer))];
    const signer = issuers.find((issuer) => requiredHashes.has(issuer));
    if (signer === undefined)
      return fail(`the issuer ${issuers[0]} of the root's certificate is not among the transaction's required signers`);
    if (!signedBy(tx, signer, txId)) return fail(`the witness set holds no valid signature of the transaction by the issuer ${signer}`);
    return { valid: true, issuer: signer, deployment: proxyPolicyId };
  } catch (err) {
    return fail(`the transaction could not be read (${errorText(err)})`);
  }
}
