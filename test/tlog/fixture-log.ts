/**
 * A small log for the tlog specs, written with the library as the service will: entries, tiles and bundles of a
 * tree, a log key and a witness key, a signed checkpoint.
 */
import { formatCheckpoint } from "../../shared/tlog/checkpoint";
import { COSIGNATURE_TYPE } from "../../shared/tlog/cosignature";
import {
  type SignerKey,
  ed25519Signer,
  ed25519Verifier,
  generateKey,
  parseSignerKey,
  parseVerifierKey,
  signNote,
  type VerifierKey,
} from "../../shared/tlog/note";
import { treeRoot } from "../../shared/tlog/rfc9162";
import { memoryTree, type MemoryTree } from "./memory-tree";

export const ORIGIN = "cert-anchor.example/log";

const must = <T>(r: { ok: true; value: T } | { ok: false; error: string }): T => {
  if (!r.ok) throw new Error(r.error);
  return r.value;
};

export interface Keys {
  signer: SignerKey;
  verifier: VerifierKey;
  vkey: string;
}

export function keys(name: string, type = 1): Keys {
  const { signerKey, verifierKey } = generateKey(name, type);
  return { signer: must(parseSignerKey(signerKey)), verifier: must(parseVerifierKey(verifierKey)), vkey: verifierKey };
}

export const logKeys = keys(ORIGIN);
export const witnessKeys = keys("witness.example/w1", COSIGNATURE_TYPE);
export const logVerifier = ed25519Verifier(logKeys.verifier);

export function signedCheckpoint(tree: MemoryTree, size: number, key: SignerKey = logKeys.signer): string {
  const text = formatCheckpoint({ origin: ORIGIN, size, rootHash: treeRoot(size, tree.read), extensions: [] });
  return signNote(text, [ed25519Signer(key)]);
}

export { memoryTree };
