// Projects CSL-decoded ledger objects into the Ogmios v6 JSON shapes (cardano.json definitions): transactions,
// metadata, certificates. Outputs, values, addresses and scripts use the CSL facade's conversions (shared/csl), the
// same code that reads Ogmios UTxOs when building transactions.
import * as CSL from "@emurgo/cardano-serialization-lib-nodejs";
import { nativeScriptToOgmios } from "../csl/native-script";
import { purposeOfTag } from "../csl/redeemer-pointers";
import { outputToOgmios, plutusScriptToOgmios } from "../csl/utxo";
import { bigintJson } from "./bigint-json";
import type { OgmiosTransaction, OgmiosTransactionOutput, OutputReference } from "./ogmios-types";
import { toHex } from "./ledger-digest";

type Json = Record<string, unknown>;

/** An Ogmios `TransactionOutput` (the CSL facade's conversion, shared with transaction building). */
export function projectOutput(output: CSL.TransactionOutput): OgmiosTransactionOutput {
  return outputToOgmios(output) as unknown as OgmiosTransactionOutput;
}

function projectInputs(inputs: CSL.TransactionInputs | undefined): OutputReference[] {
  const refs: OutputReference[] = [];
  if (!inputs) return refs;
  for (let i = 0; i < inputs.len(); i++) {
    const input = inputs.get(i);
    refs.push({ transaction: { id: input.transaction_id().to_hex() }, index: input.index() });
  }
  return refs;
}

/**
 * Ogmios metadata: `{ json }` when the value is representable as plain JSON (no bytes, only int/string keys, the
 * Ogmios rule), else `{ cbor }`. CSL's no-conversion decoder throws exactly on the unrepresentable cases.
 */
function projectMetadata(auxiliary: CSL.AuxiliaryData, declaredHash: string | undefined): Json | undefined {
  const metadata = auxiliary.metadata();
  if (!metadata) return undefined;
  const labels: Record<string, Json> = {};
  const keys = metadata.keys();
  for (let i = 0; i < keys.len(); i++) {
    const label = keys.get(i);
    const metadatum = metadata.get(label)!;
    try {
      const text = CSL.decode_metadatum_to_json_str(metadatum, CSL.MetadataJsonSchema.NoConversions);
      labels[label.to_str()] = { json: bigintJson.parse(text) as unknown };
    } catch {
      labels[label.to_str()] = { cbor: metadatum.to_hex() };
    }
  }
  return { hash: declaredHash ?? CSL.hash_auxiliary_data(auxiliary).to_hex(), labels };
}

/** The Ogmios purpose name of a CSL redeemer tag: the CSL facade's table, the one transaction building uses. */
export const redeemerPurpose = purposeOfTag;

function credentialOrigin(credential: CSL.Credential): { credential: string; from: string } {
  const script = credential.to_scripthash();
  if (script) return { credential: script.to_hex(), from: "script" };
  return { credential: credential.to_keyhash()!.to_hex(), from: "verificationKey" };
}

/** A stake credential (de)registration: its credential, and the deposit when the certificate states one. */
function credentialCertificate(type: string, cert: { stake_credential(): CSL.Credential; coin(): CSL.BigNum | undefined }): Json {
  const deposit = cert.coin();
  return {
    type,
    ...credentialOrigin(cert.stake_credential()),
    ...(deposit ? { deposit: { ada: { lovelace: BigInt(deposit.to_str()) } } } : {}),
  };
}

/** Stake certificates as Ogmios shows them; other certificate kinds are left out of the projection. */
function projectCertificates(certs: CSL.Certificates): Json[] {
  const out: Json[] = [];
  for (let i = 0; i < certs.len(); i++) {
    const cert = certs.get(i);
    const registration = cert.as_stake_registration() ?? cert.as_reg_cert();
    const deregistration = cert.as_stake_deregistration() ?? cert.as_unreg_cert();
    const delegation = cert.as_stake_delegation();
    if (registration) {
      out.push(credentialCertificate("stakeCredentialRegistration", registration));
    } else if (deregistration) {
      out.push(credentialCertificate("stakeCredentialDeregistration", deregistration));
    } else if (delegation) {
      out.push({
        type: "stakeDelegation",
        ...credentialOrigin(delegation.stake_credential()),
        stakePool: { id: delegation.pool_keyhash().to_bech32("pool") },
      });
    }
  }
  return out;
}

/** The Ogmios `Transaction` JSON of a decoded transaction (with its original CBOR). */
export function projectTransaction(tx: CSL.FixedTransaction, id: string, includeCbor: boolean): OgmiosTransaction {
  const body = tx.body();
  const witnesses = tx.witness_set();
  const out: Json = { id, spends: tx.is_valid() ? "inputs" : "collaterals", inputs: projectInputs(body.inputs()) };
  const references = body.reference_inputs();
  if (references && references.len() > 0) out.references = projectInputs(references);
  const collaterals = body.collateral();
  if (collaterals && collaterals.len() > 0) out.collaterals = projectInputs(collaterals);
  const totalCollateral = body.total_collateral();
  if (totalCollateral) out.totalCollateral = { ada: { lovelace: BigInt(totalCollateral.to_str()) } };
  const collateralReturn = body.collateral_return();
  if (collateralReturn) out.collateralReturn = projectOutput(collateralReturn);
  const outputs: OgmiosTransactionOutput[] = [];
  for (let i = 0; i < body.outputs().len(); i++) outputs.push(projectOutput(body.outputs().get(i)));
  out.outputs = outputs;
  const certs = body.certs();
  if (certs && certs.len() > 0) {
    const projected = projectCertificates(certs);
    if (projected.length > 0) out.certificates = projected;
  }
  const withdrawals = body.withdrawals();
  if (withdrawals && withdrawals.len() > 0) {
    const entries: Record<string, unknown> = {};
    const keys = withdrawals.keys();
    for (let i = 0; i < keys.len(); i++) {
      const account = keys.get(i);
      entries[account.to_address().to_bech32(undefined)] = { ada: { lovelace: BigInt(withdrawals.get(account)!.to_str()) } };
    }
    out.withdrawals = entries;
  }
  out.fee = { ada: { lovelace: BigInt(body.fee().to_str()) } };
  const validityInterval: Json = {};
  const start = body.validity_start_interval_bignum();
  if (start) validityInterval.invalidBefore = Number(start.to_str());
  const ttl = body.ttl_bignum();
  if (ttl) validityInterval.invalidAfter = Number(ttl.to_str());
  out.validityInterval = validityInterval;
  const mint = body.mint();
  if (mint && mint.len() > 0) out.mint = projectMint(mint);
  const network = body.network_id();
  if (network) out.network = network.kind() === CSL.NetworkIdKind.Mainnet ? "mainnet" : "testnet";
  const integrity = body.script_data_hash();
  if (integrity) out.scriptIntegrityHash = integrity.to_hex();
  const signers = body.required_signers();
  if (signers && signers.len() > 0) {
    const hashes: string[] = [];
    for (let i = 0; i < signers.len(); i++) hashes.push(signers.get(i).to_hex());
    out.requiredExtraSignatories = hashes;
  }
  const auxiliary = tx.auxiliary_data();
  if (auxiliary) {
    const metadata = projectMetadata(auxiliary, body.auxiliary_data_hash()?.to_hex());
    if (metadata) out.metadata = metadata;
  }
  const signatories: Json[] = [];
  const vkeys = witnesses.vkeys();
  if (vkeys) {
    for (let i = 0; i < vkeys.len(); i++) {
      const w = vkeys.get(i);
      signatories.push({ key: w.vkey().public_key().to_hex(), signature: w.signature().to_hex() });
    }
  }
  out.signatories = signatories;
  const scripts: Record<string, unknown> = {};
  const natives = witnesses.native_scripts();
  if (natives) {
    for (let i = 0; i < natives.len(); i++) {
      const s = natives.get(i);
      scripts[s.hash().to_hex()] = { language: "native", json: nativeScriptToOgmios(s), cbor: s.to_hex() };
    }
  }
  const plutus = witnesses.plutus_scripts();
  if (plutus) for (let i = 0; i < plutus.len(); i++) scripts[plutus.get(i).hash().to_hex()] = plutusScriptToOgmios(plutus.get(i));
  if (Object.keys(scripts).length > 0) out.scripts = scripts;
  const data = witnesses.plutus_data();
  if (data && data.len() > 0) {
    const datums: Record<string, string> = {};
    for (let i = 0; i < data.len(); i++) datums[CSL.hash_plutus_data(data.get(i)).to_hex()] = data.get(i).to_hex();
    out.datums = datums;
  }
  const redeemers = witnesses.redeemers();
  if (redeemers && redeemers.len() > 0) {
    const list: Json[] = [];
    for (let i = 0; i < redeemers.len(); i++) {
      const r = redeemers.get(i);
      list.push({
        validator: { purpose: redeemerPurpose(r.tag()), index: Number(r.index().to_str()) },
        redeemer: r.data().to_hex(),
        executionUnits: { memory: Number(r.ex_units().mem().to_str()), cpu: Number(r.ex_units().steps().to_str()) },
      });
    }
    out.redeemers = list;
  }
  if (includeCbor) out.cbor = tx.to_hex();
  return out as unknown as OgmiosTransaction;
}

function projectMint(mint: CSL.Mint): Record<string, Record<string, bigint>> {
  const out: Record<string, Record<string, bigint>> = {};
  const policies = mint.keys();
  for (let i = 0; i < policies.len(); i++) {
    const policy = policies.get(i);
    const groups = mint.get(policy)!;
    const entry: Record<string, bigint> = out[policy.to_hex()] ?? {};
    for (let g = 0; g < groups.len(); g++) {
      const assets = groups.get(g)!;
      const names = assets.keys();
      for (let j = 0; j < names.len(); j++) {
        const name = names.get(j);
        const key = toHex(name.name());
        entry[key] = (entry[key] ?? 0n) + BigInt(assets.get(name)!.to_str());
      }
    }
    out[policy.to_hex()] = entry;
  }
  return out;
}
