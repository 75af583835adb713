/**
 * A reference to a transaction output — the one shape every module uses (chain queries, transaction building,
 * in-flight tracking, indexer facts, deployment parameters) — and its one string key, `<txHash>#<index>`.
 */
import { TxHash } from "./hex";

export interface OutRef {
  /** transaction id, 64 lowercase hex */
  readonly txHash: string;
  readonly index: number;
}

/** `<txHash>#<index>`: the key of an output in maps, sets and stored documents. */
export function outRefKey(ref: OutRef): string {
  return `${ref.txHash}#${ref.index}`;
}

/** Inverse of `outRefKey`; undefined when `key` is not of that form. */
export function parseOutRefKey(key: string): OutRef | undefined {
  const at = key.indexOf("#");
  const txHash = key.slice(0, at);
  const index = key.slice(at + 1);
  return at >= 0 && TxHash.is(txHash) && /^\d+$/.test(index) ? { txHash, index: Number(index) } : undefined;
}
