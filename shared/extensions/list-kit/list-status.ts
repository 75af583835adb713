/** What the status answers of every list extension share. */
import type { ListRef } from "./list-source";
import type { ListRecord } from "../../sorted-list/list-store";

export interface ListIdentity {
  policyId: string | null;
  initUtxoTxHash: string | null;
  initUtxoOutputIndex: number | null;
}

/** The list a status answer names: the record's when the list is known, else what the query gave (nulls for the rest). */
export function listIdentity(record: ListRecord | null | undefined, ref: ListRef): ListIdentity {
  return {
    policyId: record?.policyId ?? ("policyId" in ref ? ref.policyId : null),
    initUtxoTxHash: record?.initRef.txHash ?? ("initRef" in ref ? ref.initRef.txHash : null),
    initUtxoOutputIndex: record?.initRef.index ?? ("initRef" in ref ? ref.initRef.index : null),
  };
}
