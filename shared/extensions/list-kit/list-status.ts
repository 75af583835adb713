/** What the status answers of every list extension share: the node of a key as the indexer recorded it (confirmed transactions only). */
import type { ListRecord } from "../../sorted-list/list-store";
import { loadConfirmed, type ListRef, type ListSource } from "./list-source";
import { findNode, keysInOrder, type ListEntry } from "./list-view";
import type { RequestFields, StatusQuery } from "./request-fields";

export interface ListIdentity {
  policyId: string | null;
  initUtxoTxHash: string | null;
  initUtxoOutputIndex: number | null;
}

/** The list a status answer names: the record's when the list is known, else what the query gave (nulls for the rest). */
function listIdentity(record: ListRecord | null | undefined, ref: ListRef): ListIdentity {
  return {
    policyId: record?.policyId ?? ("policyId" in ref ? ref.policyId : null),
    initUtxoTxHash: record?.initRef.txHash ?? ("initRef" in ref ? ref.initRef.txHash : null),
    initUtxoOutputIndex: record?.initRef.index ?? ("initRef" in ref ? ref.initRef.index : null),
  };
}

/**
 * The status route's query read (`?policyId=` or the init output reference) and the node of its key: the list's
 * identity, its keys in order (empty when the list is unknown) and the key's entry, if it has one.
 * @throws the extension's INVALID_FIELD
 */
export async function recordedNode(
  fields: Pick<RequestFields, "parseStatusQuery">,
  source: ListSource,
  query: StatusQuery,
): Promise<{ key: string; identity: ListIdentity; keys: string[]; entry: ListEntry | undefined }> {
  const { key, list: ref } = fields.parseStatusQuery(query);
  const loaded = await loadConfirmed(source, ref);
  return {
    key,
    identity: listIdentity(loaded?.record, ref),
    keys: loaded ? keysInOrder(loaded.snapshot) : [],
    entry: loaded ? findNode(loaded.snapshot, key) : undefined,
  };
}
