/**
 * The script side of a build: where each Plutus script comes from (attached, or read from a reference input), its
 * redeemer with the ex-units of its purpose, and the witness CSL takes for it.
 */
import { outRefKey } from "../domain/out-ref";
import { CslError } from "./errors";
import { CSL } from "./lib";
import { bn } from "./numbers";
import { cslLanguage, plutusScriptFromAny, type PlutusLanguage } from "./plutus-script";
import { mintKey, publishKey, spendKey, withdrawKey, type ExUnitsBudget, type PurposeKey } from "./redeemer-pointers";
import type { NativeScriptWitness, PlutusScriptWitness, TxSpec } from "./tx-spec";
import { outRefOf, referenceScriptSize, transactionInput, type OgmiosUtxo } from "./utxo";

/** What a build records of the Plutus scripts its witnesses use. */
export interface ScriptUse {
  /** outputs already referenced as a script source (not added again as plain reference inputs) */
  readonly scriptReferences: Set<string>;
  hasPlutus: boolean;
}

/** Purpose keys of every Plutus redeemer `spec` will carry. */
export function plutusPurposeKeys(spec: TxSpec): PurposeKey[] {
  const keys: PurposeKey[] = [];
  for (const s of spec.scriptInputs ?? []) keys.push(spendKey(s.utxo.transaction.id, Number(s.utxo.index)));
  for (const m of spec.mints ?? []) if (m.policy.language !== "native") keys.push(mintKey(policyIdOf(m.policy)));
  for (const w of spec.withdrawals ?? []) if (w.script) keys.push(withdrawKey(w.rewardAddress));
  for (const c of spec.certificates ?? []) keys.push(publishKey(c.kind, policyIdOf(c.script)));
  return keys;
}

/** The hash of a policy (or of any script witness): its policy id, or its credential. */
export function policyIdOf(p: PlutusScriptWitness | NativeScriptWitness): string {
  if (p.language === "native") return CSL.NativeScript.from_hex(p.cbor).hash().to_hex();
  return plutusSource(p).hash;
}

interface PlutusSourceInfo {
  hash: string;
  source: CSL.PlutusScriptSource;
  attached?: CSL.PlutusScript;
}

function plutusSource(w: PlutusScriptWitness): PlutusSourceInfo {
  if ("cbor" in w) {
    const script = plutusScriptFromAny(w.cbor, w.language);
    return { hash: script.hash().to_hex(), source: CSL.PlutusScriptSource.new(script), attached: script };
  }
  const ref = w.referenceUtxo;
  if (!ref.script || ref.script.language === "native") {
    throw new CslError("INVALID_SCRIPT", "reference UTxO carries no Plutus script", { ...outRefOf(ref) });
  }
  const known = referenceScriptOf(ref, w.language);
  const src = CSL.PlutusScriptSource.new_ref_input(
    CSL.ScriptHash.from_hex(known.hash),
    transactionInput(outRefOf(ref)),
    cslLanguage(w.language),
    known.size,
  );
  return { hash: known.hash, source: src };
}

/** The source of a Plutus script a build uses, recorded in `use` (its reference input, that Plutus is used). */
export function usePlutusSource(use: ScriptUse, w: PlutusScriptWitness): PlutusSourceInfo {
  const src = plutusSource(w);
  if ("referenceUtxo" in w) use.scriptReferences.add(outRefKey(outRefOf(w.referenceUtxo)));
  use.hasPlutus = true;
  return src;
}

/** A Plutus witness for a purpose without a datum: the script attached, or read from its reference input. */
export function plutusWitness(use: ScriptUse, w: PlutusScriptWitness, red: CSL.Redeemer): CSL.PlutusWitness {
  const src = usePlutusSource(use, w);
  return src.attached
    ? CSL.PlutusWitness.new_without_datum(src.attached, red)
    : CSL.PlutusWitness.new_with_ref_without_datum(src.source, red);
}

/**
 * Hash and size of the script a reference output carries, remembered per script bytes and language: every build
 * of a protocol transaction would otherwise parse and hash the same reference scripts again (a few KB each).
 */
const referenceScripts = new Map<string, { hash: string; size: number }>();
const REFERENCE_SCRIPTS_KEPT = 256;

function referenceScriptOf(ref: OgmiosUtxo, language: PlutusLanguage): { hash: string; size: number } {
  const key = `${language} ${(ref.script as { cbor: string }).cbor}`;
  const known = referenceScripts.get(key);
  if (known) return known;
  const script = plutusScriptFromAny((ref.script as { cbor: string }).cbor, language);
  const found = { hash: script.hash().to_hex(), size: referenceScriptSize(ref) };
  if (referenceScripts.size >= REFERENCE_SCRIPTS_KEPT) referenceScripts.clear();
  referenceScripts.set(key, found);
  return found;
}

/** A redeemer of `tag` with its data and ex-units. @throws CslError TX_BUILD_FAILED without data */
export function redeemer(tag: CSL.RedeemerTag, dataHex: string | undefined, budget: ExUnitsBudget): CSL.Redeemer {
  if (dataHex === undefined) throw new CslError("TX_BUILD_FAILED", "a Plutus purpose needs a redeemer", {});
  // the index is rewritten by the builder to the ledger's sorted position; 0 is a placeholder
  return CSL.Redeemer.new(tag, CSL.BigNum.zero(), CSL.PlutusData.from_hex(dataHex), CSL.ExUnits.new(bn(budget.memory), bn(budget.cpu)));
}

/** Ex-units for a purpose: the given ones, else an equal share of the per-tx maximum (draft pass). */
export function budgetFor(spec: TxSpec, key: PurposeKey, given: ReadonlyMap<PurposeKey, ExUnitsBudget>): ExUnitsBudget {
  const g = given.get(key);
  if (g) return g;
  const n = BigInt(Math.max(1, plutusPurposeKeys(spec).length));
  const max = spec.protocolParameters.maxExecutionUnitsPerTransaction ?? { memory: 14_000_000, cpu: 10_000_000_000 };
  return { memory: BigInt(max.memory) / n, cpu: BigInt(max.cpu) / n };
}
