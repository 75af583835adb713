/** Values: Ogmios `{ ada: { lovelace }, <policy>: { <assetName>: qty } }` ↔ CSL Value. Quantities are bigint. */
import type { Value as OgmiosValue } from "@cardano-ogmios/schema";
import { CSL } from "./lib";
import { itemsOf } from "./list-items";
import { bn, fromBn, toBigInt, type IntLike } from "./numbers";

export type { OgmiosValue };

/** policy id hex → asset name hex → quantity */
export type AssetMap = Record<string, Record<string, bigint>>;

export function multiAssetFrom(assets: AssetMap): CSL.MultiAsset | undefined {
  const ma = CSL.MultiAsset.new();
  let any = false;
  for (const [policy, names] of Object.entries(assets)) {
    for (const [name, qty] of Object.entries(names)) {
      ma.set_asset(CSL.ScriptHash.from_hex(policy), CSL.AssetName.new(Buffer.from(name, "hex")), bn(qty, "asset quantity"));
      any = true;
    }
  }
  return any ? ma : undefined;
}

function valueFrom(lovelace: IntLike, assets: AssetMap = {}): CSL.Value {
  const v = CSL.Value.new(bn(lovelace, "lovelace"));
  const ma = multiAssetFrom(assets);
  if (ma) v.set_multiasset(ma);
  return v;
}

export function valueFromOgmios(v: OgmiosValue): CSL.Value {
  const { ada, ...rest } = v;
  const assets: AssetMap = {};
  for (const [policy, names] of Object.entries(rest)) {
    assets[policy] = {};
    for (const [name, qty] of Object.entries(names)) (assets[policy] as Record<string, bigint>)[name] = toBigInt(qty);
  }
  return valueFrom(ada.lovelace, assets);
}

/** The native assets of a value (zero quantities and empty policies left out). */
function assetsOf(v: CSL.Value): AssetMap {
  const out: AssetMap = {};
  const ma = v.multiasset();
  for (const policy of itemsOf(ma?.keys())) {
    const assets = ma?.get(policy);
    const entry: Record<string, bigint> = {};
    for (const name of itemsOf(assets?.keys())) {
      const qty = fromBn(assets?.get(name) as CSL.BigNum);
      if (qty !== 0n) entry[assetNameHex(name)] = qty;
    }
    if (Object.keys(entry).length > 0) out[policy.to_hex()] = entry;
  }
  return out;
}

/** An asset name as hex (its raw bytes, whatever their text). */
export function assetNameHex(name: CSL.AssetName): string {
  return Buffer.from(name.name()).toString("hex");
}

export function valueToOgmios(v: CSL.Value): OgmiosValue {
  return { ada: { lovelace: fromBn(v.coin()) }, ...assetsOf(v) } as OgmiosValue;
}

/** Adds asset maps (for conservation checks); zero entries removed. */
export function addAssets(a: AssetMap, b: AssetMap, sign: 1n | -1n = 1n): AssetMap {
  const out: AssetMap = {};
  for (const m of [a, b]) {
    const k = m === a ? 1n : sign;
    for (const [p, names] of Object.entries(m)) {
      for (const [n, q] of Object.entries(names)) {
        const row = (out[p] ??= {});
        row[n] = (row[n] ?? 0n) + k * q;
        if (row[n] === 0n) delete row[n];
      }
      if (out[p] && Object.keys(out[p]).length === 0) delete out[p];
    }
  }
  return out;
}
