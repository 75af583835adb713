/**
 * A tokenizable list as builds and the status route see it: the generic sorted-list view
 * (shared/sorted-list/list-source.ts: the indexer's record, with in-flight transactions applied for builds) plus
 * the decoded HEAD config and node datums.
 */
import type { InflightRegistry } from "../inflight";
import { type TokenizableHead, type TokenizableNode, dataFromCborHex, decodeTokenizableDatum } from "../protocol";
import {
  loadConfirmed,
  withPending,
  type ListEntry,
  type ListRecord,
  type ListRef,
  type ListSnapshot,
  type ListSource,
} from "../sorted-list";
import { refuseTokenizable } from "./errors";
import { tokenizableLinks } from "./list-layout";

export interface TokenizableList {
  readonly record: ListRecord;
  readonly snapshot: ListSnapshot;
  readonly head: TokenizableHead;
}

export function headDatumOf(e: ListEntry): TokenizableHead {
  const d = decodeTokenizableDatum(dataFromCborHex(e.utxo.datum!));
  if (d.kind !== "head") throw new Error("list HEAD without a HEAD datum");
  return { next: d.next, config: d.config };
}

export function nodeDatumOf(e: ListEntry): TokenizableNode {
  const d = decodeTokenizableDatum(dataFromCborHex(e.utxo.datum!));
  if (d.kind !== "node") throw new Error("list node without a node datum");
  return d;
}

function unknownList(ref: ListRef): never {
  return refuseTokenizable(
    "UNKNOWN_LIST",
    "policyId" in ref
      ? `No tokenizable list with policy id ${ref.policyId} is known (it does not exist, or its Init is not confirmed yet).`
      : `No tokenizable list was created from the init UTxO ${ref.initRef.txHash}#${ref.initRef.index} (or its Init is not confirmed yet).`,
    "policyId" in ref ? { policyId: ref.policyId } : { initUtxoTxHash: ref.initRef.txHash, initUtxoOutputIndex: ref.initRef.index },
  );
}

/** @throws TokenizableError UNKNOWN_LIST */
export async function loadListForBuild(source: ListSource, registry: InflightRegistry, ref: ListRef): Promise<TokenizableList> {
  const confirmed = await loadConfirmed(source, ref);
  if (!confirmed) return unknownList(ref);
  const loaded = await withPending(confirmed, registry, tokenizableLinks);
  return { ...loaded, head: headDatumOf(loaded.snapshot.head) };
}
