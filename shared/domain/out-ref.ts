/**
 * A reference to a transaction output — the one shape every module uses (chain queries, transaction building,
 * in-flight tracking, indexer facts, deployment parameters) — and its one string key, `<txHash>#<index>`.
 */
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
  const m = /^([0-9a-f]{64})#(\d+)$/.exec(key);
  return m ? { txHash: m[1]!, index: Number(m[2]) } : undefined;
}
