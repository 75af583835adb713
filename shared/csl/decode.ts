/** A plain-data view of a transaction (for checks, logs and tests); reads the bytes as they are. */
import { CSL } from "./lib";
import { cslCall } from "./errors";
import { fromHex } from "./hex";
import { fromBn, fromInt } from "./numbers";
import { redeemersOf, type RedeemerInfo } from "./redeemer-pointers";
import { outputToOgmios, type OgmiosOutput, type OutRef } from "./utxo";
import type { AssetMap } from "./value";

export interface DecodedTx {
  id: string;
  sizeBytes: number;
  isValid: boolean;
  fee: bigint;
  inputs: OutRef[];
  referenceInputs: OutRef[];
  collateral: OutRef[];
  collateralReturn?: OgmiosOutput;
  totalCollateral?: bigint;
  outputs: OgmiosOutput[];
  /** signed quantities: negative = burn */
  mint: AssetMap;
  withdrawals: Record<string, bigint>;
  validityStartSlot?: bigint;
  ttlSlot?: bigint;
  requiredSigners: string[];
  scriptDataHash?: string;
  auxiliaryDataHash?: string;
  metadataLabels: bigint[];
  redeemers: RedeemerInfo[];
  vkeyWitnesses: Array<{ publicKey: string; keyHash: string }>;
  plutusScriptHashes: string[];
  datumHashes: string[];
}

function refs(xs: CSL.TransactionInputs | undefined): OutRef[] {
  const out: OutRef[] = [];
  for (let i = 0; xs && i < xs.len(); i++) {
    const x = xs.get(i);
    out.push({ txId: x.transaction_id().to_hex(), index: x.index() });
  }
  return out;
}

/** @throws CslError INVALID_CBOR */
export function decodeTx(txCborHex: string): DecodedTx {
  const bytes = fromHex(txCborHex, "transaction");
  const fixed = cslCall("INVALID_CBOR", "cannot decode transaction", () => CSL.FixedTransaction.from_bytes(bytes));
  const body = fixed.body();
  const ws = fixed.witness_set();

  const outputs: OgmiosOutput[] = [];
  const outs = body.outputs();
  for (let i = 0; i < outs.len(); i++) outputs.push(outputToOgmios(outs.get(i)));

  const mint: AssetMap = {};
  const m = body.mint();
  const policies = m?.keys();
  for (let i = 0; m && policies && i < policies.len(); i++) {
    const policy = policies.get(i);
    const all = m.get(policy);
    for (let j = 0; all && j < all.len(); j++) {
      const assets = all.get(j) as CSL.MintAssets;
      const names = assets.keys();
      for (let k = 0; k < names.len(); k++) {
        const name = names.get(k);
        const row = (mint[policy.to_hex()] ??= {});
        const hexName = Buffer.from(name.name()).toString("hex");
        row[hexName] = (row[hexName] ?? 0n) + fromInt(assets.get(name) as CSL.Int);
      }
    }
  }

  const withdrawals: Record<string, bigint> = {};
  const w = body.withdrawals();
  const accounts = w?.keys();
  for (let i = 0; w && accounts && i < accounts.len(); i++) {
    const ra = accounts.get(i);
    withdrawals[ra.to_address().to_bech32()] = fromBn(w.get(ra) as CSL.BigNum);
  }

  const signers: string[] = [];
  const rs = body.required_signers();
  for (let i = 0; rs && i < rs.len(); i++) signers.push(rs.get(i).to_hex());

  const vkeyWitnesses: Array<{ publicKey: string; keyHash: string }> = [];
  const vk = ws.vkeys();
  for (let i = 0; vk && i < vk.len(); i++) {
    const pk = vk.get(i).vkey().public_key();
    vkeyWitnesses.push({ publicKey: pk.to_hex(), keyHash: pk.hash().to_hex() });
  }

  const plutusScriptHashes: string[] = [];
  const ps = ws.plutus_scripts();
  for (let i = 0; ps && i < ps.len(); i++) plutusScriptHashes.push(ps.get(i).hash().to_hex());

  const datumHashes: string[] = [];
  const pd = ws.plutus_data();
  for (let i = 0; pd && i < pd.len(); i++) datumHashes.push(CSL.hash_plutus_data(pd.get(i)).to_hex());

  const labels: bigint[] = [];
  const meta = fixed.auxiliary_data()?.metadata()?.keys();
  for (let i = 0; meta && i < meta.len(); i++) labels.push(fromBn(meta.get(i)));

  const collRet = body.collateral_return();
  const total = body.total_collateral();
  const start = body.validity_start_interval_bignum();
  const ttl = body.ttl_bignum();
  const sdh = body.script_data_hash();
  const adh = body.auxiliary_data_hash();
  return {
    id: fixed.transaction_hash().to_hex(),
    sizeBytes: bytes.length,
    isValid: fixed.is_valid(),
    fee: fromBn(body.fee()),
    inputs: refs(body.inputs()),
    referenceInputs: refs(body.reference_inputs()),
    collateral: refs(body.collateral()),
    ...(collRet ? { collateralReturn: outputToOgmios(collRet) } : {}),
    ...(total ? { totalCollateral: fromBn(total) } : {}),
    outputs,
    mint,
    withdrawals,
    ...(start ? { validityStartSlot: fromBn(start) } : {}),
    ...(ttl ? { ttlSlot: fromBn(ttl) } : {}),
    requiredSigners: signers,
    ...(sdh ? { scriptDataHash: sdh.to_hex() } : {}),
    ...(adh ? { auxiliaryDataHash: adh.to_hex() } : {}),
    metadataLabels: labels,
    redeemers: redeemersOf(txCborHex),
    vkeyWitnesses,
    plutusScriptHashes,
    datumHashes,
  };
}
