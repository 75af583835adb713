/**
 * A fractionized list as a build sees it: the generic sorted-list view (shared/sorted-list/list-source.ts: the
 * indexer's record with in-flight transactions applied) plus the decoded HEAD config.
 */
import type { InflightRegistry } from "../inflight";
import {
  type FractionizedHead,
  type FractionizedNode,
  dataFromCborHex,
  decodeFractionizedDatum,
  FRACTIONIZED_LIST,
  listHeadTokenName,
} from "../protocol";
import {
  liveOutputs,
  loadConfirmed,
  withPending,
  type ListEntry,
  type ListRecord,
  type ListRef,
  type ListSnapshot,
  type ListSource,
} from "../sorted-list";
import { refuseFractionized } from "./errors";
import { fractionizedLinks } from "./list-layout";

export type { ListSource };

export interface FractionizedList {
  readonly record: ListRecord;
  readonly snapshot: ListSnapshot;
  readonly head: FractionizedHead;
}

export function headDatumOf(e: ListEntry): FractionizedHead {
  const d = decodeFractionizedDatum(dataFromCborHex(e.utxo.datum!));
  if (d.kind !== "head") throw new Error("list HEAD without a HEAD datum");
  return { next: d.next, config: d.config };
}

export function nodeDatumOf(e: ListEntry): FractionizedNode {
  const d = decodeFractionizedDatum(dataFromCborHex(e.utxo.datum!));
  if (d.kind !== "node") throw new Error("list node without a node datum");
  return d;
}

/** The confirmed list only (status reads this). @throws FractionizedError UNKNOWN_LIST */
export async function loadConfirmedList(source: ListSource, ref: ListRef): Promise<FractionizedList> {
  const loaded = await loadConfirmed(source, ref);
  if (!loaded) return unknownList(ref);
  return { ...loaded, head: headDatumOf(loaded.snapshot.head) };
}

/** The list with in-flight transactions applied (builds read this). @throws FractionizedError UNKNOWN_LIST */
export async function loadListForBuild(source: ListSource, registry: InflightRegistry, ref: ListRef): Promise<FractionizedList> {
  const loaded = await withPending(await loadConfirmedList(source, ref), registry, fractionizedLinks);
  return { ...loaded, head: headDatumOf(loaded.snapshot.head) };
}

function unknownList(ref: ListRef): never {
  return refuseFractionized(
    "UNKNOWN_LIST",
    "policyId" in ref
      ? `No fractionized list with policy id ${ref.policyId} is known (it does not exist, or its Init is not confirmed yet).`
      : `No fractionized list was created from the init UTxO ${ref.initRef.txHash}#${ref.initRef.index} (or its Init is not confirmed yet).`,
    "policyId" in ref ? { policyId: ref.policyId } : { initUtxoTxHash: ref.initRef.txHash, initUtxoOutputIndex: ref.initRef.index },
  );
}

export { liveOutputs };

export const FRACTIONIZED_HEAD_TOKEN = listHeadTokenName(FRACTIONIZED_LIST);
