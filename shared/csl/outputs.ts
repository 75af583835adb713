/** Output specs (plain data) → CSL outputs, with min-ADA filled in or checked. */
import { CSL } from "./lib";
import { CslError, cslCall } from "./errors";
import { fromBn, bn } from "./numbers";
import { scriptRefFromOgmios, type OgmiosScript } from "./utxo";
import { multiAssetFrom, type AssetMap } from "./value";

export interface OutputSpec {
  address: string;
  /** omitted: the min-ADA for this output */
  lovelace?: bigint;
  assets?: AssetMap;
  /** inline datum, PlutusData CBOR hex */
  inlineDatum?: string;
  /** datum hash (32 bytes hex); the datum itself is not attached */
  datumHash?: string;
  /** reference script to store in the output (Ogmios script JSON; Plutus cbor in any wrapping) */
  referenceScript?: OgmiosScript;
}

/** @throws CslError OUTPUT_BELOW_MIN_UTXO, INVALID_ADDRESS */
export function outputFrom(spec: OutputSpec, coinsPerUtxoByte: bigint): CSL.TransactionOutput {
  const address = cslCall("INVALID_ADDRESS", "invalid output address", () => CSL.Address.from_bech32(spec.address), {
    address: spec.address,
  });
  let b = CSL.TransactionOutputBuilder.new().with_address(address);
  if (spec.inlineDatum) b = b.with_plutus_data(CSL.PlutusData.from_hex(spec.inlineDatum));
  else if (spec.datumHash) b = b.with_data_hash(CSL.DataHash.from_hex(spec.datumHash));
  if (spec.referenceScript) b = b.with_script_ref(scriptRefFromOgmios(spec.referenceScript));
  const ma = multiAssetFrom(spec.assets ?? {});
  const dataCost = CSL.DataCost.new_coins_per_byte(bn(coinsPerUtxoByte));
  const amount = b.next();
  const draft = (ma ? amount.with_asset_and_min_required_coin_by_utxo_cost(ma, dataCost) : amount.with_coin(bn(1_000_000n))).build();
  const min = minAdaFor(draft, dataCost);
  const coin = spec.lovelace ?? min;
  if (coin < min) {
    throw new CslError("OUTPUT_BELOW_MIN_UTXO", `output of ${coin} lovelace is below the minimum ${min}`, {
      address: spec.address,
      lovelace: coin.toString(),
      minimum: min.toString(),
    });
  }
  const v = draft.amount();
  v.set_coin(bn(coin));
  return withAmount(draft, v);
}

/** The min-ADA depends on the coin's own encoded size, so iterate to the fixed point. */
function minAdaFor(o: CSL.TransactionOutput, dataCost: CSL.DataCost): bigint {
  let out = o;
  for (let i = 0; i < 4; i++) {
    const min = fromBn(CSL.min_ada_for_output(out, dataCost));
    if (fromBn(out.amount().coin()) === min) return min;
    const v = out.amount();
    v.set_coin(bn(min));
    out = withAmount(out, v);
  }
  return fromBn(CSL.min_ada_for_output(out, dataCost));
}

function withAmount(o: CSL.TransactionOutput, v: CSL.Value): CSL.TransactionOutput {
  const out = CSL.TransactionOutput.new(o.address(), v);
  const d = o.plutus_data();
  if (d) out.set_plutus_data(d);
  const h = o.data_hash();
  if (h) out.set_data_hash(h);
  const s = o.script_ref();
  if (s) out.set_script_ref(s);
  return out;
}
