/**
 * `GET /extension/fractionized-certificate/status/{key}`: one node of a list as the indexer recorded it
 * (confirmed transactions only). An unknown list or key answers `exists: false` with zeros and nulls.
 */
import type { ListSource } from "../list-kit/list-source";
import { recordedNode, type ListIdentity } from "../list-kit/list-status";
import type { StatusQuery } from "../list-kit/request-fields";
import { FRACTIONIZED } from "./extension";

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
  const { key, identity, keys, entry } = await recordedNode(FRACTIONIZED.fields, source, query);
  const none: FractionizedStatus = {
    key,
    exists: false,
    ...identity,
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
  if (!entry) return { ...none, keys };
  const d = FRACTIONIZED.lists.nodeDatumOf(entry);
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
