/**
 * Transaction metadata from plain JS values. Strings and byte strings must be ≤ 64 bytes each
 * (ledger rule); integers are bigint or safe numbers; maps are plain objects (string keys) or Maps.
 */
import { CSL } from "./lib";
import { CslError } from "./errors";

export type Metadatum = string | number | bigint | Uint8Array | Metadatum[] | Map<Metadatum, Metadatum> | { [key: string]: Metadatum };

/** label → metadatum (e.g. { 674: { msg: ["hello"] } } for CIP-20) */
export type TxMetadata = Record<number, Metadatum>;

function metadatumFrom(x: Metadatum, path = "$"): CSL.TransactionMetadatum {
  if (typeof x === "string") {
    if (Buffer.byteLength(x, "utf8") > 64) {
      throw new CslError("TX_BUILD_FAILED", "metadata text longer than 64 bytes", { path, bytes: Buffer.byteLength(x) });
    }
    return CSL.TransactionMetadatum.new_text(x);
  }
  if (typeof x === "number" || typeof x === "bigint") {
    return CSL.TransactionMetadatum.new_int(CSL.Int.from_str(BigInt(x).toString()));
  }
  if (x instanceof Uint8Array) {
    if (x.length > 64) throw new CslError("TX_BUILD_FAILED", "metadata bytes longer than 64", { path, bytes: x.length });
    return CSL.TransactionMetadatum.new_bytes(x);
  }
  if (Array.isArray(x)) {
    const list = CSL.MetadataList.new();
    x.forEach((e, i) => list.add(metadatumFrom(e, `${path}[${i}]`)));
    return CSL.TransactionMetadatum.new_list(list);
  }
  const map = CSL.MetadataMap.new();
  const entries: Array<[Metadatum, Metadatum]> = x instanceof Map ? [...x.entries()] : Object.entries(x);
  for (const [k, v] of entries) map.insert(metadatumFrom(k, path), metadatumFrom(v, `${path}.${String(k)}`));
  return CSL.TransactionMetadatum.new_map(map);
}

export function auxiliaryDataFrom(metadata: TxMetadata): CSL.AuxiliaryData {
  const general = CSL.GeneralTransactionMetadata.new();
  for (const [label, value] of Object.entries(metadata)) {
    general.insert(CSL.BigNum.from_str(label), metadatumFrom(value, label));
  }
  const aux = CSL.AuxiliaryData.new();
  aux.set_metadata(general);
  return aux;
}
