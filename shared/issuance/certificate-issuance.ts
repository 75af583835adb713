/**
 * `default` and `custom` builds (docs/api.md#default-and-custom): choose the state to
 * update or the bootstrap to fork from (shared/domain/issuance-plan over the datums actually spent), pre-check
 * what the validator would reject, and build the fork or update.
 */
import type { Certificate } from "../domain/certificate-request";
import { isFeeDue } from "../domain/fee-rule";
import { mayUseBootstrap, planIssuance, type BootstrapTerms, type StateTerms } from "../domain/issuance-plan";
import type { BootstrapInfo } from "../records/protocol-records";
import type { OgmiosUtxo } from "../csl/utxo";
import { makeCertificate, type BootstrapDatum } from "../protocol";
import { refuse } from "./build-outcome";
import { keyHashOfAddress, type BuildRequest } from "./build-request";
import { buildEvaluatedAndClaim, type BuildSpec } from "./evaluated-build";
import { forkSpec } from "./fork-state";
import type { IssuanceEnv } from "./issuance-env";
import { outRefKey } from "../domain/out-ref";
import { loadLiveProtocol, requireDeployment, withOutputs, type LiveProtocol } from "./live-protocol";
import { checkBatchSize, checkCountdown, checkFeeShares, checkFeeTerms, checkWhitelist } from "./pre-checks";
import { forkTermsOf, loadStateCandidates, stateDatumOf, termsOf, type StateCandidate } from "./state-candidates";
import { updateSpec, type CertificateTxInput } from "./update-state";
import { validityWindow, type ValidityWindow } from "./validity-window";
import { loadWalletFunds, requireCollateral } from "./wallet-funds";

export interface IssuanceResult {
  cborHex: string;
  txId: string;
  kind: "fork" | "update";
  stateId: string;
  /** POSIX ms after which the transaction can no longer be in a block (its validity interval's upper bound) */
  expiresAtMs: number;
}

function bootstrapTermsOf(b: BootstrapInfo): BootstrapTerms {
  return {
    name: b.name,
    allowedCredentials: b.allowedCredentials,
    ...forkTermsOf(b),
    transactionLimit: BigInt(b.transactionLimit),
    batchSize: BigInt(b.batchSize),
  };
}

function bootstrapDatumOf(b: BootstrapInfo): BootstrapDatum {
  const t = bootstrapTermsOf(b);
  return { ...t, tokenName: b.tokenName };
}

/** Why no bootstrap fits, in the order a caller can fix it. @throws BuildRefusal ERROR */
function explainNoPlan(bootstraps: readonly BootstrapTerms[], credential: string, now: number, batch: number, named?: string): never {
  if (bootstraps.length === 0) {
    return refuse(
      "ERROR",
      named
        ? `Unknown bootstrap datum "${named}".`
        : "No bootstrap datum exists yet; an administrator must create one (type bootstrap) before certificates can be issued.",
    );
  }
  const allowed = bootstraps.filter((b) => mayUseBootstrap(b, credential));
  if (allowed.length === 0)
    checkWhitelist(bootstraps[0]!.allowedCredentials, credential, named ? `bootstrap "${named}"` : "any bootstrap datum");
  const alive = allowed.filter((b) => BigInt(now) < b.ttl);
  if (alive.length === 0)
    refuse("ERROR", `Every bootstrap datum available to this address has expired (ttl); ask an administrator for a new one.`);
  const usable = alive.filter((b) => b.feeInterval > 0n && b.transactionLimit > 0n);
  if (usable.length === 0) checkFeeTerms(alive[0]!, `bootstrap "${alive[0]!.name}"`);
  const largest = usable.reduce((m, b) => (b.batchSize > m ? b.batchSize : m), 0n);
  checkBatchSize(batch, largest, named ? `bootstrap "${named}"` : "every available bootstrap datum");
  return refuse("ERROR", "No state or bootstrap datum can carry this request.");
}

/**
 * A certificate transaction ready to build: the update or fork spec, the budget-hint key of its shape, and the
 * live protocol it references. Extensions that anchor their keys as certificates add their own parts to `spec`.
 */
export interface CertificatePlan {
  spec: BuildSpec;
  hintKey: string;
  kind: "fork" | "update";
  stateId: string;
  live: LiveProtocol;
}

/** @throws BuildRefusal */
export async function buildCertificateTransaction(env: IssuanceEnv, req: BuildRequest): Promise<IssuanceResult> {
  const plan = await planCertificateTransaction(env, req);
  const built = await buildEvaluatedAndClaim(env, plan.spec, plan.hintKey);
  return {
    cborHex: built.cborHex,
    txId: built.txId,
    kind: plan.kind,
    stateId: plan.stateId,
    expiresAtMs: env.slots.timeOfSlot(Number(plan.spec.ttlSlot)),
  };
}

/** Chooses the state to update or the bootstrap to fork, pre-checks it, and returns the spec. @throws BuildRefusal */
export async function planCertificateTransaction(env: IssuanceEnv, req: BuildRequest): Promise<CertificatePlan> {
  const deployment = requireDeployment(env);
  const owner = keyHashOfAddress(req.address, env.networkId);
  const address = req.address!;
  if (!req.certificates || req.certificates.length === 0)
    refuse("ERROR", "certificates must be a non-empty array of { hash, algorithm?, metadata? }");
  const certs: Certificate[] = req.certificates;
  const onchain = certs.map((c) => makeCertificate({ hash: c.hash, algorithm: c.algorithm, issuer: owner, metadata: c.metadata }));
  const now = env.now();
  const batch = certs.length;
  const name = req.type === "custom" || req.bootstrapDatum?.name ? req.bootstrapDatum?.name || undefined : undefined;

  // Funds load alongside, but request and protocol problems are reported before wallet problems.
  const fundsP = loadWalletFunds(env.chain, env.registry, address);
  fundsP.catch(() => undefined);
  // The protocol's live outputs too; the state or bootstrap output is looked up once chosen.
  const liveP = loadLiveProtocol(env);
  liveP.catch(() => undefined);
  const [candidates, bootInfos, pp] = await Promise.all([
    loadStateCandidates(env, deployment, owner),
    env.source.bootstraps(name ? { name } : {}),
    env.protocolParameters(),
  ]);

  let chosen: { kind: "update"; state: StateCandidate } | { kind: "fork"; boot: BootstrapInfo };
  if (req.stateId) {
    const state = candidates.find((c) => c.datum.id === req.stateId);
    if (!state)
      refuse("ERROR", `Unknown state ${req.stateId} for this address (it does not exist, was burned, or belongs to another address).`);
    checkCountdown(state.datum.countdown, `State ${state.datum.id}`);
    checkBatchSize(batch, state.datum.batchSize, `state ${state.datum.id}`);
    chosen = { kind: "update", state };
  } else {
    const usableBoots = bootInfos.filter((b) => BigInt(b.feeInterval) > 0n);
    const terms = usableBoots.map(bootstrapTermsOf);
    const stateList = candidates.filter((c) => (!name || termsOf(c).bootstrapName === name) && c.datum.feeInterval > 0n);
    const plan = planIssuance({ credential: owner, states: stateList.map(termsOf), bootstraps: terms, now, batch });
    if (plan.kind === "none") explainNoPlan(bootInfos.map(bootstrapTermsOf), owner, now, batch, name);
    chosen =
      plan.kind === "update"
        ? { kind: "update", state: stateList.find((c) => c.datum.id === (plan.state as StateTerms).id)! }
        : { kind: "fork", boot: usableBoots.find((b) => b.name === plan.bootstrap.name)! };
  }

  const txInput = async (live: LiveProtocol, window: ValidityWindow): Promise<CertificateTxInput> => {
    const funds = await fundsP;
    return {
      live,
      window,
      address,
      certificates: onchain,
      payable: funds.payable,
      collateral: requireCollateral(funds),
      networkId: env.networkId,
    };
  };

  if (chosen.kind === "update") {
    const cand = chosen.state;
    const d = cand.datum;
    checkFeeTerms(d, `state ${d.id}`);
    if (isFeeDue(d, d.countdown)) checkFeeShares(d, pp, env.networkId, `state ${d.id}`);
    const window = validityWindow(env.slots, now, { ms: d.ttl, what: `State ${d.id}` });
    const live = await withOutputs(env, await liveP, cand.pending || !cand.outRef ? [] : [cand.outRef]);
    const utxo: OgmiosUtxo | undefined = cand.pending ?? (cand.outRef ? live.extra.get(outRefKey(cand.outRef)) : undefined);
    if (!utxo) refuse("PENDING_TRANSACTION", `State ${d.id} is being changed by a recent transaction; retry in a few seconds.`);
    const datum = stateDatumOf(utxo) ?? d;
    checkCountdown(datum.countdown, `State ${d.id}`);
    const spec = updateSpec({ ...(await txInput(live, window)), state: { utxo, datum } });
    return { spec, hintKey: `update:${batch}:${isFeeDue(datum, datum.countdown)}`, kind: "update", stateId: d.id, live };
  }

  const boot = bootstrapDatumOf(chosen.boot);
  const what = `bootstrap "${chosen.boot.name}"`;
  checkWhitelist(boot.allowedCredentials, owner, what);
  checkBatchSize(batch, boot.batchSize, what);
  checkFeeTerms(boot, what);
  if (boot.transactionLimit <= 0n) refuse("ERROR", `${what} allows no transactions (transactionLimit ${boot.transactionLimit}).`);
  if (isFeeDue(boot, boot.transactionLimit)) checkFeeShares(boot, pp, env.networkId, what);
  const window = validityWindow(env.slots, now, { ms: boot.ttl, what: `Bootstrap "${chosen.boot.name}"` });
  const live = await withOutputs(env, await liveP, [chosen.boot.outRef]);
  const bootUtxo = live.extra.get(outRefKey(chosen.boot.outRef));
  if (!bootUtxo) refuse("PENDING_TRANSACTION", `${what} is not visible on chain right now; retry in a few seconds.`);
  const { spec, stateId } = forkSpec({ ...(await txInput(live, window)), bootstrap: { utxo: bootUtxo, datum: boot }, owner });
  return { spec, hintKey: `fork:${batch}:${isFeeDue(boot, boot.transactionLimit)}`, kind: "fork", stateId, live };
}
