/**
 * `GET /extension/tokenizable-certificate/status/{key}`: one node of a list as the indexer recorded it (confirmed
 * transactions only). An unknown list or key answers `exists: false` with nulls.
 */
import { enterpriseAddressOfKeyHash } from "../../csl/address";
import { findNode } from "../list-kit/list-view";
import { listIdentity, type ListIdentity } from "../list-kit/list-status";
import { loadConfirmed, type ListSource } from "../list-kit/list-source";
import { type StatusQuery } from "../list-kit/request-fields";
import { nodeDatumOf } from "./list-state";
import { tokenizableFields } from "./request";

export interface TokenizableStatus extends ListIdentity {
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
  certificate: { transactionHash: string | null };
}

export async function tokenizableStatus(source: ListSource, networkId: number, query: StatusQuery): Promise<TokenizableStatus> {
  const { key, list: ref } = tokenizableFields.parseStatusQuery(query);
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
    ...listIdentity(record, ref),
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
