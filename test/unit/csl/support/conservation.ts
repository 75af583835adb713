/** Ledger value conservation: consumed (inputs + withdrawals + mint) = produced (outputs + fee + burn). */
import { addAssets, decodeTx, type AssetMap, type OgmiosUtxo } from "../../../../shared/csl";

export interface Balance {
  lovelace: bigint;
  assets: AssetMap;
}

export function conservation(txCborHex: string, known: readonly OgmiosUtxo[]): { consumed: Balance; produced: Balance } {
  const tx = decodeTx(txCborHex);
  const byRef = new Map(known.map((u) => [`${u.transaction.id}#${Number(u.index)}`, u]));
  let consumedAda = 0n;
  let consumedAssets: AssetMap = {};
  for (const i of tx.inputs) {
    const u = byRef.get(`${i.txHash}#${i.index}`);
    if (!u) throw new Error(`unknown input ${i.txHash}#${i.index}`);
    const { ada, ...assets } = u.value;
    consumedAda += BigInt(ada.lovelace);
    consumedAssets = addAssets(consumedAssets, assets as AssetMap);
  }
  for (const w of Object.values(tx.withdrawals)) consumedAda += w;
  const minted: AssetMap = {};
  const burned: AssetMap = {};
  for (const [p, names] of Object.entries(tx.mint)) {
    for (const [n, q] of Object.entries(names)) {
      if (q > 0n) (minted[p] ??= {})[n] = q;
      else (burned[p] ??= {})[n] = -q;
    }
  }
  consumedAssets = addAssets(consumedAssets, minted);
  let producedAda = tx.fee;
  let producedAssets: AssetMap = { ...burned };
  for (const o of tx.outputs) {
    const { ada, ...assets } = o.value;
    producedAda += BigInt(ada.lovelace);
    producedAssets = addAssets(producedAssets, assets as AssetMap);
  }
  return { consumed: { lovelace: consumedAda, assets: consumedAssets }, produced: { lovelace: producedAda, assets: producedAssets } };
}
