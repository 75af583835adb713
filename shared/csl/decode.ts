/**
 * A plain-data view of a transaction (for checks, logs and tests); reads the bytes as they are. `decodeTxFlow`
 * is the light view of the hot paths (submission, in-flight tracking): what a transaction spends and produces.
 */
import { CSL } from "./lib";
import { cslCall } from "./errors";
import { fromHex } from "./hex";
import { itemsOf } from "./list-items";
import { fromBn, fromInt } from "./numbers";
import { redeemersOf, type RedeemerInfo } from "./redeemer-pointers";
import type { OutRef } from "../domain/out-ref";
import { TxHash } from "../domain/hex";
import { outputToOgmios, type OgmiosOutput } from "./utxo";
import { assetNameHex, type AssetMap } from "./value";

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
  return itemsOf(xs).map((x) => ({ txHash: x.transaction_id().to_hex(), index: x.index() }));
}

/** @throws CslError INVALID_CBOR */
export function decodeTx(txCborHex: string): DecodedTx {
  const bytes = fromHex(txCborHex, "transaction");
  const fixed = cslCall("INVALID_CBOR", "cannot decode transaction", () => CSL.FixedTransaction.from_bytes(bytes));
  const body = fixed.body();
  const ws = fixed.witness_set();

  const outputs = itemsOf(body.outputs()).map(outputToOgmios);

  // signed quantities, summed per policy and name
  const mint: AssetMap = {};
  const m = body.mint();
  for (const policy of itemsOf(m?.keys())) {
    for (const assets of itemsOf(m?.get(policy))) {
      for (const name of itemsOf(assets?.keys())) {
        const row = (mint[policy.to_hex()] ??= {});
        const hexName = assetNameHex(name);
        row[hexName] = (row[hexName] ?? 0n) + fromInt(assets?.get(name) as CSL.Int);
      }
    }
  }

  const withdrawals: Record<string, bigint> = {};
  const w = body.withdrawals();
  for (const ra of itemsOf(w?.keys())) withdrawals[ra.to_address().to_bech32()] = fromBn(w?.get(ra) as CSL.BigNum);

  const signers = itemsOf(body.required_signers()).map((signer) => signer.to_hex());
  const vkeyWitnesses = itemsOf(ws.vkeys()).map((witness) => {
    const pk = witness.vkey().public_key();
    return { publicKey: pk.to_hex(), keyHash: pk.hash().to_hex() };
  });
  const plutusScriptHashes = itemsOf(ws.plutus_scripts()).map((script) => script.hash().to_hex());
  const datumHashes = itemsOf(ws.plutus_data()).map((datum) => CSL.hash_plutus_data(datum).to_hex());
  const labels = itemsOf(fixed.auxiliary_data()?.metadata()?.keys()).map(fromBn);

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

/** What a transaction spends, and until when it may land. */
export interface TxSpend {
  id: TxHash;
  inputs: OutRef[];
  ttlSlot?: bigint;
}

/** What a transaction spends and produces, and who signed it. */
export interface TxFlow extends TxSpend {
  outputs: OgmiosOutput[];
  /** key hashes of the vkey witnesses */
  signers: string[];
}

function fixedTx(txCborHex: string): CSL.FixedTransaction {
  const bytes = fromHex(txCborHex, "transaction");
  return cslCall("INVALID_CBOR", "cannot decode transaction", () => CSL.FixedTransaction.from_bytes(bytes));
}

function spendOf(fixed: CSL.FixedTransaction): TxSpend {
  const body = fixed.body();
  const ttl = body.ttl_bignum();
  return { id: TxHash(fixed.transaction_hash().to_hex()), inputs: refs(body.inputs()), ...(ttl ? { ttlSlot: fromBn(ttl) } : {}) };
}

/**
 * The lightest decode (the submit endpoint): the same parse as `decodeTx` (malformed bytes fail alike), reading
 * only the id, the inputs and the validity bound. @throws CslError INVALID_CBOR
 */
export function decodeTxSpend(txCborHex: string): TxSpend {
  return spendOf(fixedTx(txCborHex));
}

/**
 * The light decode of in-flight tracking: `decodeTxSpend` plus the outputs and the vkey signers, without the
 * redeemers, mint, withdrawals, scripts and datums `decodeTx` reads. @throws CslError INVALID_CBOR
 */
export function decodeTxFlow(txCborHex: string): TxFlow {
  const fixed = fixedTx(txCborHex);
  return {
    ...spendOf(fixed),
    outputs: itemsOf(fixed.body().outputs()).map(outputToOgmios),
    signers: itemsOf(fixed.witness_set().vkeys()).map((w) => w.vkey().public_key().hash().to_hex()),
  };
}
