/**
 * `GET /extension/tokenizable-certificate/status/{key}`: one node of a list as the indexer recorded it (confirmed
 * transactions only). An unknown list or key answers `exists: false` with nulls.
 */
import { enterpriseAddressOfKeyHash } from "../csl/address";
import { MAX_HASH_BYTES } from "../domain/certificate-request";
import { findNode, loadConfirmed, type ListRef, type ListSource } from "../sorted-list";
import { refuseTokenizable } from "./errors";
import { nodeDatumOf } from "./list-state";
import { hexField } from "./request";

export interface TokenizableStatus {
  key: string;
  exists: boolean;
  /** the published client's field: true once redeemed */
  claimed: boolean;
  status: "Available" | "Redeemed" | null;
  /** the owner's enterprise address on the service's network (its key hash as an address) */
  owner: string | null;
  ownerPubKeyHash: string | null;
  assetName: string | null;
  next: string | null;
  policyId: string | null;
  initUtxoTxHash: string | null;
  initUtxoOutputIndex: number | null;
  certificate: { transactionHash: string | null };
}

export interface StatusQuery {
  key?: unknown;
  policyId?: unknown;
  initUtxoTxHash?: unknown;
  initUtxoOutputIndex?: unknown;
}

/** @throws TokenizableError INVALID_FIELD for a malformed key or list reference */
export function parseStatusQuery(q: StatusQuery): { key: string; list: ListRef } {
  const key = hexField(q.key, "key", { maxBytes: MAX_HASH_BYTES })!;
  const policyId = hexField(q.policyId, "policyId", { bytes: 28, required: false });
  if (policyId) return { key, list: { policyId } };
  const txHash = hexField(q.initUtxoTxHash, "initUtxoTxHash", { bytes: 32, required: false });
  const rawIndex = q.initUtxoOutputIndex;
  const index = typeof rawIndex === "string" && /^\d{1,5}$/.test(rawIndex) ? Number(rawIndex) : rawIndex;
  if (txHash === undefined || typeof index !== "number" || !Number.isInteger(index) || index < 0 || index > 65535)
    return refuseTokenizable(
      "INVALID_FIELD",
      "Name the list: ?policyId=<56 hex> or ?initUtxoTxHash=<64 hex>&initUtxoOutputIndex=<integer>.",
      {
        field: txHash === undefined ? "policyId" : "initUtxoOutputIndex",
      },
    );
  return { key, list: { initRef: { txHash, index } } };
}

export async function tokenizableStatus(source: ListSource, networkId: number, query: StatusQuery): Promise<TokenizableStatus> {
  const { key, list: ref } = parseStatusQuery(query);
  const loaded = await loadConfirmed(source, ref);
  const record = loaded?.record;
  const none: TokenizableStatus = {
    key,
    exists: false,
    claimed: false,
    status: null,
    owner: null,
    ownerPubKeyHash: null,
    assetName: null,
    next: null,
    policyId: record?.policyId ?? ("policyId" in ref ? ref.policyId : null),
    initUtxoTxHash: record?.initRef.txHash ?? ("initRef" in ref ? ref.initRef.txHash : null),
    initUtxoOutputIndex: record?.initRef.index ?? ("initRef" in ref ? ref.initRef.index : null),
    certificate: { transactionHash: null },
  };
  const entry = loaded ? findNode(loaded.snapshot, key) : undefined;
  if (!entry) return none;
  const d = nodeDatumOf(entry);
  return {
    ...none,
    exists: true,
    claimed: d.status === "Redeemed",
    status: d.status,
    owner: enterpriseAddressOfKeyHash(d.owner, networkId),
    ownerPubKeyHash: d.owner,
    assetName: d.assetName,
    next: d.next ?? null,
    certificate: { transactionHash: entry.origin?.txHash ?? null },
  };
}
