/** Fixture builders for the CSL facade tests: fresh ids per call, overrides for what a test cares about. */
import { randomBytes } from "node:crypto";
import type { ProtocolParameters } from "@cardano-ogmios/schema";
import { ogmiosProtocolParameters } from "../../../../shared/devnet/protocol-parameters";
import type { AssetMap, OgmiosScript, OgmiosUtxo } from "../../../../shared/csl";
import { Wallet, generateMnemonic } from "../../../../shared/wallet";

export const PP: ProtocolParameters = ogmiosProtocolParameters();

/** plu-ts 0.9.0 `compile(pfn([PScriptContext.type], unit)(_ => pmakeUnit()))`: raw flat, Plutus V3 */
export const ALWAYS_SUCCEEDS_FLAT = "01010098004926a40a81";
/** plu-ts 0.9.0: succeeds iff the redeemer is I 42 (flat, V3) */
export const REDEEMER_42_FLAT = "010100980048c966002003149a2cab9a19b87375a646ae84d5d1000991aab9e3754002002902a5205401";

/** PlutusData CBOR: I 42, I 41, unit-like Constr 0 [] */
export const DATA_42 = "182a";
export const DATA_41 = "1829";
export const DATA_UNIT = "d87980";

export function randomTxId(): string {
  return randomBytes(32).toString("hex");
}

export function aWallet(): Wallet {
  return Wallet.fromMnemonic(generateMnemonic());
}

export interface UtxoOverrides {
  address: string;
  lovelace?: bigint;
  assets?: AssetMap;
  txId?: string;
  index?: number;
  datum?: string;
  datumHash?: string;
  script?: OgmiosScript;
}

export function aUtxo(o: UtxoOverrides): OgmiosUtxo {
  const u: OgmiosUtxo = {
    transaction: { id: o.txId ?? randomTxId() },
    index: o.index ?? 0,
    address: o.address,
    value: { ada: { lovelace: o.lovelace ?? 10_000_000n }, ...(o.assets ?? {}) } as OgmiosUtxo["value"],
  };
  if (o.datum) u.datum = o.datum;
  if (o.datumHash) u.datumHash = o.datumHash;
  if (o.script) u.script = o.script;
  return u;
}
