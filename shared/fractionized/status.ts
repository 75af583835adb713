/**
 * `GET /extension/fractionized-certificate/status/{key}`: one node of a list as the indexer recorded it
 * (confirmed transactions only). An unknown list or key answers `exists: false` with zeros and nulls.
 */
import { MAX_HASH_BYTES } from "../domain/certificate-request";
import { findNode, keysInOrder, listEntryOf, snapshotOf } from "../sorted-list";
import { nodeDatumOf, type ListSource } from "./list-state";
import { hexField } from "./request";
import { refuseFractionized } from "./errors";
import type { ListRef } from "./request";

export interface FractionizedStatus {
  key: string;
  exists: boolean;
  policyId: string | null;
  initUtxoTxHash: string | null;
  initUtxoOutputIndex: number | null;
  totalAmount: number;
  remainingAmount: number;
  exhausted: boolean;
  status: "TokensAvailable" | "TokensExhausted" | null;
  claimants: string[];
  assetName: string | null;
  next: string | null;
  certificate: { transactionHash: string | null; blockNumber: number | null };
  /** the list's keys in order (empty when the list is unknown) */
  keys: string[];
}

export interface StatusQuery {
  key?: unknown;
  policyId?: unknown;
  initUtxoTxHash?: unknown;
  initUtxoOutputIndex?: unknown;
}

/** @throws FractionizedError INVALID_FIELD for a malformed key or list reference */
export function parseStatusQuery(q: StatusQuery): { key: string; list: ListRef } {
  const key = hexField(q.key, "key", { maxBytes: MAX_HASH_BYTES })!;
  const policyId = hexField(q.policyId, "policyId", { bytes: 28, required: false });
  if (policyId) return { key, list: { policyId } };
  const txHash = hexField(q.initUtxoTxHash, "initUtxoTxHash", { bytes: 32, required: false });
  const rawIndex = q.initUtxoOutputIndex;
  const index = typeof rawIndex === "string" && /^\d{1,5}$/.test(rawIndex) ? Number(rawIndex) : rawIndex;
  if (txHash === undefined || typeof index !== "number" || !Number.isInteger(index) || index < 0 || index > 65535) {
    return refuseFractionized(
      "INVALID_FIELD",
      "Name the list: ?policyId=<56 hex> or ?initUtxoTxHash=<64 hex>&initUtxoOutputIndex=<integer>.",
      { field: txHash === undefined ? "policyId" : "initUtxoOutputIndex" },
    );
  }
  return { key, list: { initRef: { txHash, index } } };
}

export async function fractionizedStatus(source: ListSource, query: StatusQuery): Promise<FractionizedStatus> {
  const { key, list: ref } = parseStatusQuery(query);
  const { list, entries } = await source.list(ref);
  const none: FractionizedStatus = {
    key,
    exists: false,
    policyId: list?.policyId ?? ("policyId" in ref ? ref.policyId : null),
    initUtxoTxHash: list?.initRef.txHash ?? ("initRef" in ref ? ref.initRef.txHash : null),
    initUtxoOutputIndex: list?.initRef.index ?? ("initRef" in ref ? ref.initRef.index : null),
    totalAmount: 0,
    remainingAmount: 0,
    exhausted: false,
    status: null,
    claimants: [],
    assetName: null,
    next: null,
    certificate: { transactionHash: null, blockNumber: null },
    keys: [],
  };
  if (!list) return none;
  const snapshot = snapshotOf(entries.map((e) => listEntryOf(list.policyId, e)));
  if (!snapshot) return none;
  const keys = keysInOrder(snapshot);
  const entry = findNode(snapshot, key);
  if (!entry) return { ...none, keys };
  const d = nodeDatumOf(entry);
  return {
    ...none,
    exists: true,
    totalAmount: Number(d.totalAmount),
    remainingAmount: Number(d.remainingAmount),
    exhausted: d.status === "TokensExhausted",
    status: d.status,
    claimants: [...d.claimants],
    assetName: d.assetName,
    next: d.next ?? null,
    certificate: { transactionHash: entry.origin?.txHash ?? null, blockNumber: entry.origin?.blockHeight ?? null },
    keys,
  };
}
