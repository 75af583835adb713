/**
 * `GET /extension/tokenizable-certificate/status/{key}`: one node of a list as the indexer recorded it (confirmed
 * transactions only). An unknown list or key answers `exists: false` with nulls.
 */
import { enterpriseAddressOfKeyHash } from "../../csl/address";
import type { ListSource } from "../list-kit/list-source";
import { recordedNode, type ListIdentity } from "../list-kit/list-status";
import type { StatusQuery } from "../list-kit/request-fields";
import { TOKENIZABLE } from "./extension";

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
  const { key, identity, entry } = await recordedNode(TOKENIZABLE.fields, source, query);
  const none: TokenizableStatus = {
    key,
    exists: false,
    claimed: false,
    status: null,
    owner: null,
    ownerPubKeyHash: null,
    assetName: null,
    next: null,
    ...identity,
    certificate: { transactionHash: null },
  };
  if (!entry) return none;
  const d = TOKENIZABLE.lists.nodeDatumOf(entry);
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
