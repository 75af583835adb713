// Projects CSL-decoded ledger objects into the Ogmios v6 JSON shapes (cardano.json definitions). Only the devnet
// uses CSL here, and only to decode what it must show: outputs, transactions, metadata, scripts, certificates.
import * as CSL from "@emurgo/cardano-serialization-lib-nodejs";
import { bigintJson } from "./bigint-json";
import type { OgmiosTransaction, OgmiosTransactionOutput, OutputReference } from "./ogmios-types";
import { toHex } from "./ledger-digest";

type Json = Record<string, unknown>;
type NativeScriptJson = Json;

/** Bech32 for Shelley addresses, base58 for Byron ones. */
export function addressText(address: CSL.Address): string {
  const byron = CSL.ByronAddress.from_address(address);
  return byron ? byron.to_base58() : address.to_bech32(undefined);
}

/** An Ogmios `Value` from a CSL value: `{ ada: { lovelace }, <policy>: { <assetName>: qty } }`. */
export function projectValue(value: CSL.Value): Record<string, Record<string, bigint>> {
  const out: Record<string, Record<string, bigint>> = { ada: { lovelace: BigInt(value.coin().to_str()) } };
  const multiasset = value.multiasset();
  if (multiasset) {
    const policies = multiasset.keys();
    for (let i = 0; i < policies.len(); i++) {
      const policy = policies.get(i);
      const assets = multiasset.get(policy);
      if (!assets) continue;
      const names = assets.keys();
      const entry: Record<string, bigint> = {};
      for (let j = 0; j < names.len(); j++) {
        const name = names.get(j);
        entry[toHex(name.name())] = BigInt(assets.get(name)?.to_str() ?? "0");
      }
      out[policy.to_hex()] = entry;
    }
  }
  return out;
}

/** The Ogmios JSON of a native script (`clause` tree). */
export function projectNativeScript(script: CSL.NativeScript): NativeScriptJson {
  const list = (scripts: CSL.NativeScripts): NativeScriptJson[] => {
    const items: NativeScriptJson[] = [];
    for (let i = 0; i < scripts.len(); i++) items.push(projectNativeScript(scripts.get(i)));
    return items;
  };
  switch (script.kind()) {
    case CSL.NativeScriptKind.ScriptPubkey:
      return { clause: "signature", from: script.as_script_pubkey()!.addr_keyhash().to_hex() };
    case CSL.NativeScriptKind.ScriptAll:
      return { clause: "all", from: list(script.as_script_all()!.native_scripts()) };
    case CSL.NativeScriptKind.ScriptAny:
      return { clause: "any", from: list(script.as_script_any()!.native_scripts()) };
    case CSL.NativeScriptKind.ScriptNOfK: {
      const nOfK = script.as_script_n_of_k()!;
      return { clause: "some", atLeast: nOfK.n(), from: list(nOfK.native_scripts()) };
    }
    case CSL.NativeScriptKind.TimelockStart:
      return { clause: "after", slot: Number(script.as_timelock_start()!.slot_bignum().to_str()) };
    default:
      return { clause: "before", slot: Number(script.as_timelock_expiry()!.slot_bignum().to_str()) };
  }
}

const PLUTUS_LANGUAGES = ["plutus:v1", "plutus:v2", "plutus:v3"] as const;

/** Ogmios `Script` for a Plutus script; `cbor` is the single-wrapped script bytes (what the ledger hashes). */
export function projectPlutusScript(script: CSL.PlutusScript): Json {
  return { language: PLUTUS_LANGUAGES[script.language_version().kind()], cbor: toHex(script.bytes()) };
}

function projectScriptRef(ref: CSL.ScriptRef): Json {
  const native = ref.native_script();
  if (native) return { language: "native", json: projectNativeScript(native), cbor: native.to_hex() };
  return projectPlutusScript(ref.plutus_script()!);
}

/** An Ogmios `TransactionOutput`. */
export function projectOutput(output: CSL.TransactionOutput): OgmiosTransactionOutput {
  const out: Json = { address: addressText(output.address()), value: projectValue(output.amount()) };
  const datumHash = output.data_hash();
  if (datumHash) out.datumHash = datumHash.to_hex();
  const datum = output.plutus_data();
  if (datum) out.datum = datum.to_hex();
  const scriptRef = output.script_ref();
  if (scriptRef) out.script = projectScriptRef(scriptRef);
  return out as unknown as OgmiosTransactionOutput;
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
export function projectMetadata(auxiliary: CSL.AuxiliaryData, declaredHash: string | undefined): Json | undefined {
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

const REDEEMER_PURPOSES = ["spend", "mint", "publish", "withdraw", "vote", "propose"] as const;

/** The Ogmios purpose name of a CSL redeemer tag. */
export function redeemerPurpose(tag: CSL.RedeemerTag): (typeof REDEEMER_PURPOSES)[number] {
  return REDEEMER_PURPOSES[tag.kind()] ?? "spend";
}

function credentialOrigin(credential: CSL.Credential): { credential: string; from: string } {
  const script = credential.to_scripthash();
  if (script) return { credential: script.to_hex(), from: "script" };
  return { credential: credential.to_keyhash()!.to_hex(), from: "verificationKey" };
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
      const deposit = registration.coin();
      out.push({
        type: "stakeCredentialRegistration",
        ...credentialOrigin(registration.stake_credential()),
        ...(deposit ? { deposit: { ada: { lovelace: BigInt(deposit.to_str()) } } } : {}),
      });
    } else if (deregistration) {
      const deposit = deregistration.coin();
      out.push({
        type: "stakeCredentialDeregistration",
        ...credentialOrigin(deregistration.stake_credential()),
        ...(deposit ? { deposit: { ada: { lovelace: BigInt(deposit.to_str()) } } } : {}),
      });
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
  const scripts: Record<string, Json> = {};
  const natives = witnesses.native_scripts();
  if (natives) {
    for (let i = 0; i < natives.len(); i++) {
      const s = natives.get(i);
      scripts[s.hash().to_hex()] = { language: "native", json: projectNativeScript(s), cbor: s.to_hex() };
    }
  }
  const plutus = witnesses.plutus_scripts();
  if (plutus) for (let i = 0; i < plutus.len(); i++) scripts[plutus.get(i).hash().to_hex()] = projectPlutusScript(plutus.get(i));
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
