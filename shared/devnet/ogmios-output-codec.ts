// The reverse projection needed by evaluateTransaction's `additionalUtxo`: an Ogmios TransactionOutput back to CBOR.
import * as CSL from "@emurgo/cardano-serialization-lib-nodejs";
import { DevnetError } from "./errors";
import { fromHex } from "./ledger-digest";
import type { OgmiosTransactionOutput } from "./ogmios-types";

const bn = (n: bigint | number) => CSL.BigNum.from_str(n.toString());

function address(text: string): CSL.Address {
  if (CSL.ByronAddress.is_valid(text)) return CSL.ByronAddress.from_base58(text).to_address();
  return CSL.Address.from_bech32(text);
}

/**
 * CBOR of an Ogmios output.
 * @throws DevnetError 3004 (CannotCreateEvaluationContext) when the output cannot be decoded.
 */
export function ogmiosOutputToCbor(output: OgmiosTransactionOutput): Uint8Array {
  try {
    const { ada, ...assets } = output.value as unknown as Record<string, Record<string, bigint | number>> & {
      ada: { lovelace: bigint | number };
    };
    const value = CSL.Value.new(bn(ada.lovelace));
    if (Object.keys(assets).length > 0) {
      const multiasset = CSL.MultiAsset.new();
      for (const [policy, names] of Object.entries(assets)) {
        for (const [name, qty] of Object.entries(names)) {
          multiasset.set_asset(CSL.ScriptHash.from_hex(policy), CSL.AssetName.new(fromHex(name)), bn(qty));
        }
      }
      value.set_multiasset(multiasset);
    }
    const out = CSL.TransactionOutput.new(address(output.address), value);
    if (output.datumHash) out.set_data_hash(CSL.DataHash.from_hex(output.datumHash));
    if (output.datum) out.set_plutus_data(CSL.PlutusData.from_hex(output.datum));
    const script = output.script as { language: string; cbor?: string } | undefined;
    if (script) {
      if (script.language === "native") {
        if (!script.cbor) throw new Error("native scripts in additionalUtxo need their 'cbor'");
        out.set_script_ref(CSL.ScriptRef.new_native_script(CSL.NativeScript.from_hex(script.cbor)));
      } else {
        const bytes = fromHex(script.cbor ?? "");
        const plutus =
          script.language === "plutus:v1"
            ? CSL.PlutusScript.new(bytes)
            : script.language === "plutus:v2"
              ? CSL.PlutusScript.new_v2(bytes)
              : CSL.PlutusScript.new_v3(bytes);
        out.set_script_ref(CSL.ScriptRef.new_plutus_script(plutus));
      }
    }
    return out.to_bytes();
  } catch (err) {
    throw new DevnetError(3004, "Cannot create the evaluation context: an additional UTxO is malformed.", {
      reason: String(err instanceof Error ? err.message : err),
    });
  }
}
