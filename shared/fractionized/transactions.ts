/**
 * The list parts of the three transitions (docs/extensions-onchain.md#9-transactions-the-service-builds), added
 * to the anchoring certificate transaction (Init, Insert) or to a plain payment (Claim). The list script is
 * attached to the transaction (each list has its own script: the init output reference is its parameter).
 */
import type { MintSpec, PlutusScriptWitness, ScriptInputSpec } from "../csl/build-tx";
import { outputFrom, type OutputSpec } from "../csl/outputs";
import type { OgmiosUtxo } from "../csl/utxo";
import {
  type Data,
  type FractionizedConfig,
  type FractionizedHead,
  type FractionizedNode,
  type FractionizedRedeemer,
  type FractionizedScript,
  dataToCborHex,
  encodeFractionizedHead,
  encodeFractionizedNode,
  encodeFractionizedRedeemer,
  fractionizedNodeTokenName,
} from "../protocol";
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

const witness = (script: FractionizedScript): PlutusScriptWitness => ({ language: "plutus:v3", cbor: script.code });
const redeemerHex = (r: FractionizedRedeemer): string => dataToCborHex(encodeFractionizedRedeemer(r));

function listOutput(script: FractionizedScript, tokenName: string, datum: Data, lovelace?: bigint): OutputSpec {
  return {
    address: script.address,
    assets: { [script.policyId]: { [tokenName]: 1n } },
    inlineDatum: dataToCborHex(datum),
    ...(lovelace !== undefined ? { lovelace } : {}),
  };
}

/** A re-created entry keeps at least its ADA, topped up to the min-ADA of its (possibly larger) datum. */
function keepingAda(out: OutputSpec, old: OgmiosUtxo, coinsPerByte: bigint): OutputSpec {
  const min = BigInt(
    outputFrom({ ...out, lovelace: undefined }, coinsPerByte)
      .amount()
      .coin()
      .to_str(),
  );
  const kept = BigInt(old.value.ada.lovelace);
  return { ...out, lovelace: kept > min ? kept : min };
}

export interface NewNodeTerms {
  readonly totalAmount: bigint;
  readonly claimants: readonly string[];
  readonly assetName: string;
}

function newNode(key: string, next: string | undefined, t: NewNodeTerms): FractionizedNode {
  return {
    key,
    next,
    totalAmount: t.totalAmount,
    remainingAmount: t.totalAmount,
    claimants: t.claimants,
    assetName: t.assetName,
    status: "TokensAvailable",
  };
}

export function initParts(
  script: FractionizedScript,
  initUtxo: OgmiosUtxo,
  key: string,
  config: FractionizedConfig,
  t: NewNodeTerms,
): ListParts {
  const node = fractionizedNodeTokenName(key);
  const redeemer = redeemerHex({ action: "Init", key });
  return {
    keyInputs: [initUtxo],
    mints: [{ policy: witness(script), redeemer, assets: { [script.headTokenName]: 1n, [node]: 1n } }],
    outputs: [
      listOutput(script, script.headTokenName, encodeFractionizedHead({ next: key, config })),
      listOutput(script, node, encodeFractionizedNode(newNode(key, undefined, t))),
    ],
    requiredSigners: [config.deployer],
  };
}

export type Predecessor =
  | { readonly kind: "head"; readonly utxo: OgmiosUtxo; readonly datum: FractionizedHead }
  | { readonly kind: "node"; readonly utxo: OgmiosUtxo; readonly datum: FractionizedNode; readonly head: OgmiosUtxo };

export function insertParts(
  script: FractionizedScript,
  pred: Predecessor,
  key: string,
  inserter: string,
  t: NewNodeTerms,
  coinsPerByte: bigint,
): ListParts {
  const node = fractionizedNodeTokenName(key);
  const redeemer = redeemerHex({ action: "Insert", key });
  const oldNext = pred.datum.next;
  const relinked =
    pred.kind === "head"
      ? listOutput(script, script.headTokenName, encodeFractionizedHead({ ...pred.datum, next: key }))
      : listOutput(script, fractionizedNodeTokenName(pred.datum.key), encodeFractionizedNode({ ...pred.datum, next: key }));
  return {
    scriptInputs: [{ utxo: pred.utxo, script: witness(script), redeemer }],
    referenceInputs: pred.kind === "node" ? [pred.head] : [],
    mints: [{ policy: witness(script), redeemer, assets: { [node]: 1n } }],
    outputs: [keepingAda(relinked, pred.utxo, coinsPerByte), listOutput(script, node, encodeFractionizedNode(newNode(key, oldNext, t)))],
    requiredSigners: [inserter],
  };
}

export function claimParts(
  script: FractionizedScript,
  node: { utxo: OgmiosUtxo; datum: FractionizedNode },
  claimer: string,
  claimerAddress: string,
  amount: bigint,
  coinsPerByte: bigint,
): ListParts {
  const d = node.datum;
  const redeemer = redeemerHex({ action: "Claim", key: d.key, claimer, amount });
  const left = d.remainingAmount - amount;
  const recreated: FractionizedNode = { ...d, remainingAmount: left, status: left === 0n ? "TokensExhausted" : "TokensAvailable" };
  return {
    scriptInputs: [{ utxo: node.utxo, script: witness(script), redeemer }],
    mints: [{ policy: witness(script), redeemer, assets: { [d.assetName]: amount } }],
    outputs: [
      keepingAda(listOutput(script, fractionizedNodeTokenName(d.key), encodeFractionizedNode(recreated)), node.utxo, coinsPerByte),
      // the claimed tokens in their own output: the validator wants one output holding exactly `amount`
      { address: claimerAddress, assets: { [script.policyId]: { [d.assetName]: amount } } },
    ],
    requiredSigners: [claimer],
  };
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
