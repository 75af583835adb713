/**
 * What the extensions (shared/extensions) may use of the issuance, all from this one module: build a
 * certificate-anchoring transaction with extra parts (a list extension anchors each key as an ordinary certificate
 * and adds its list's parts to that transaction), or a payment from the caller's wallet with extra parts; and the
 * building blocks of a build of their own (wallet funds and collateral, evaluated and draft builds, refusals).
 */
import type { MintSpec, ScriptInputSpec } from "../csl/build-tx";
import type { OutputSpec } from "../csl/outputs";
import { utxoKey, type OgmiosUtxo } from "../csl/utxo";
import type { BuildRequest } from "./build-request";
import { planCertificateTransaction } from "./certificate-issuance";
import { buildEvaluatedAndClaim, type BuildSpec } from "./evaluated-build";
import type { IssuanceEnv } from "./issuance-env";
import { loadWalletFunds, requireCollateral } from "./wallet-funds";

export { isBuildRefusal, refuse } from "./build-outcome";
export { keyHashOfAddress, type BuildRequest } from "./build-request";
export { buildEvaluatedAndClaim, draftBuild, type BuildSpec } from "./evaluated-build";
export type { IssuanceEnv } from "./issuance-env";
export { collateralBesides, loadWalletFunds, requireCollateral, type WalletFunds } from "./wallet-funds";

/** What an extension adds to a base transaction (the anchoring certificate transaction, or a payment). */
export interface ExtraParts {
  keyInputs?: OgmiosUtxo[];
  scriptInputs?: ScriptInputSpec[];
  referenceInputs?: OgmiosUtxo[];
  mints: MintSpec[];
  outputs: OutputSpec[];
  requiredSigners: string[];
}

/** The base transaction plus the extra parts (the extra outputs first). */
export function withExtraParts(base: BuildSpec, parts: ExtraParts): BuildSpec {
  const spent = new Set((parts.scriptInputs ?? []).map((s) => utxoKey(s.utxo)));
  const keyInputs = [...(base.keyInputs ?? []), ...(parts.keyInputs ?? [])];
  return {
    ...base,
    utxos: base.utxos.filter((u) => !spent.has(utxoKey(u))),
    keyInputs: [...new Map(keyInputs.map((u) => [utxoKey(u), u])).values()],
    scriptInputs: [...(parts.scriptInputs ?? []), ...(base.scriptInputs ?? [])],
    referenceInputs: [...(base.referenceInputs ?? []), ...(parts.referenceInputs ?? [])],
    mints: [...(base.mints ?? []), ...parts.mints],
    outputs: [...parts.outputs, ...(base.outputs ?? [])],
    requiredSigners: [...new Set([...(base.requiredSigners ?? []), ...parts.requiredSigners])],
  };
}

/** The extra parts of an anchoring transaction, chosen once the protocol it anchors through is known. */
interface AnchoringExtras {
  readonly parts: ExtraParts;
  /**
   * Put up instead of the wallet's dedicated collateral, which the transaction spends as one of its inputs (a
   * list's init UTxO). The transaction spends this one too, so no concurrent build can take it before it lands;
   * its value comes back as change.
   */
  readonly collateral?: OgmiosUtxo;
}

/**
 * The certificate transaction of `request` (its state chosen and pre-checked as for `/transaction/build`) with the
 * extras `extras` gives, built, evaluated and its inputs claimed. `extras` learns the state script the certificates
 * are anchored through, and may refuse (throw). `hintKey` names the transaction's shape for the budget hints, from
 * the anchoring's own.
 * @throws BuildRefusal, or what `extras` throws
 */
export async function buildAnchoringWith(
  env: IssuanceEnv,
  request: BuildRequest,
  extras: (anchor: { readonly stateHash: string }) => AnchoringExtras | Promise<AnchoringExtras>,
  hintKey: (anchoringHintKey: string) => string,
): Promise<{ cborHex: string; txId: string }> {
  const plan = await planCertificateTransaction(env, request);
  const { parts, collateral } = await extras({ stateHash: plan.live.stateHash });
  const spec = withCollateral(withExtraParts(plan.spec, parts), collateral);
  return buildEvaluatedAndClaim(env, spec, hintKey(plan.hintKey));
}

function withCollateral(spec: BuildSpec, collateral: OgmiosUtxo | undefined): BuildSpec {
  if (!collateral) return spec;
  const keyInputs = spec.keyInputs ?? [];
  return {
    ...spec,
    collateral: [collateral],
    keyInputs: keyInputs.some((u) => utxoKey(u) === utxoKey(collateral)) ? keyInputs : [...keyInputs, collateral],
  };
}

/** The ledger's min-ADA coefficient (lovelace per byte of an output). */
export async function coinsPerUtxoByte(env: IssuanceEnv): Promise<bigint> {
  return BigInt((await env.protocolParameters()).minUtxoDepositCoefficient);
}

/**
 * A transaction that anchors nothing: a payment from `address`'s wallet (its funds, its collateral, change back to
 * it) plus the extra parts, built, evaluated and its inputs claimed. @throws BuildRefusal
 */
export async function buildPaymentWith(
  env: IssuanceEnv,
  address: string,
  parts: (coinsPerByte: bigint) => ExtraParts,
  hintKey: string,
): Promise<{ cborHex: string; txId: string }> {
  const funds = await loadWalletFunds(env.chain, env.registry, address);
  const collateral = requireCollateral(funds);
  const extra = parts(await coinsPerUtxoByte(env));
  const spec = withExtraParts({ utxos: funds.payable, changeAddress: address, collateral: [collateral], mints: [], outputs: [] }, extra);
  return buildEvaluatedAndClaim(env, spec, hintKey);
}
