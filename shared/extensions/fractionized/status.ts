/**
 * `GET /extension/fractionized-certificate/status/{key}`: one node of a list as the indexer recorded it
 * (confirmed transactions only). An unknown list or key answers `exists: false` with zeros and nulls.
 */
import { findNode, keysInOrder, listEntryOf, snapshotOf } from "../list-kit/list-view";
import { listIdentity, type ListIdentity } from "../list-kit/list-status";
import { type ListSource } from "../list-kit/list-source";
import { type StatusQuery } from "../list-kit/request-fields";
import { nodeDatumOf } from "./list-state";
import { fractionizedFields } from "./request";

export interface FractionizedStatus extends ListIdentity {
  key: string;
  exists: boolean;
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

export async function fractionizedStatus(source: ListSource, query: StatusQuery): Promise<FractionizedStatus> {
  const { key, list: ref } = fractionizedFields.parseStatusQuery(query);
  const { list, entries } = await source.list(ref);
  const none: FractionizedStatus = {
    key,
    exists: false,
    ...listIdentity(list, ref),
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
