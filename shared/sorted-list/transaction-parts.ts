/**
 * Building blocks of list transitions, for any kind of list: the parts a transition adds to a base transaction
 * (the anchoring certificate transaction, or a plain payment), list outputs, and re-created entries keeping
 * their ADA.
 */
import type { MintSpec, ScriptInputSpec } from "../csl/build-tx";
import { outputFrom, type OutputSpec } from "../csl/outputs";
import type { OgmiosUtxo } from "../csl/utxo";
import { type Data, dataToCborHex } from "../protocol";
import type { BuildSpec } from "../issuance/evaluated-build";

/** The parts a transition adds to a base transaction. */
export interface ListParts {
  keyInputs?: OgmiosUtxo[];
  scriptInputs?: ScriptInputSpec[];
  referenceInputs?: OgmiosUtxo[];
  mints: MintSpec[];
  outputs: OutputSpec[];
  requiredSigners: string[];
}

/** An output at the list's address holding one of its tokens, with an inline datum. */
export function listOutput(script: { address: string; policyId: string }, tokenName: string, datum: Data, lovelace?: bigint): OutputSpec {
  return {
    address: script.address,
    assets: { [script.policyId]: { [tokenName]: 1n } },
    inlineDatum: dataToCborHex(datum),
    ...(lovelace !== undefined ? { lovelace } : {}),
  };
}

/** A re-created entry keeps at least its ADA, topped up to the min-ADA of its (possibly larger) datum. */
export function keepingAda(out: OutputSpec, old: OgmiosUtxo, coinsPerByte: bigint): OutputSpec {
  const min = BigInt(
    outputFrom({ ...out, lovelace: undefined }, coinsPerByte)
      .amount()
      .coin()
      .to_str(),
  );
  const kept = BigInt(old.value.ada.lovelace);
  return { ...out, lovelace: kept > min ? kept : min };
}

const refKey = (u: OgmiosUtxo) => `${u.transaction.id}#${u.index}`;

/** The base transaction plus the list's parts (the list's outputs first). */
export function combine(base: BuildSpec, parts: ListParts): BuildSpec {
  const spent = new Set((parts.scriptInputs ?? []).map((s) => refKey(s.utxo)));
  const keyInputs = [...(base.keyInputs ?? []), ...(parts.keyInputs ?? [])];
  return {
    ...base,
    utxos: base.utxos.filter((u) => !spent.has(refKey(u))),
    keyInputs: [...new Map(keyInputs.map((u) => [refKey(u), u])).values()],
    scriptInputs: [...(parts.scriptInputs ?? []), ...(base.scriptInputs ?? [])],
    referenceInputs: [...(base.referenceInputs ?? []), ...(parts.referenceInputs ?? [])],
    mints: [...(base.mints ?? []), ...parts.mints],
    outputs: [...parts.outputs, ...(base.outputs ?? [])],
    requiredSigners: [...new Set([...(base.requiredSigners ?? []), ...parts.requiredSigners])],
  };
}
