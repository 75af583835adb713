/**
 * MINT_BOOTSTRAP (`bootstrap`) and BURN_BOOTSTRAP (`burn_bootstrap`), docs/api.md#bootstrap-and-burn_bootstrap: signed and paid by a
 * bootstrap administrator (a parameter of the state script; the `address` of the request).
 */
import { paymentCredentialOf } from "../csl/address";
import type { ProtocolParameters } from "../csl/protocol-parameters";
import { KeyHash } from "../domain/hex";
import { encodeBootstrapDatum, type BootstrapDatum } from "../protocol";
import { refuse } from "./build-outcome";
import { keyHashOfAddress, type BootstrapRequest } from "./build-request";
import { buildEvaluatedAndClaim } from "./evaluated-build";
import type { Deployment, IssuanceEnv } from "./issuance-env";
import { outRefKey } from "../domain/out-ref";
import { loadLiveProtocol, requireDeployment } from "./live-protocol";
import { checkBootstrapFeeTerms, checkFeeShares, checkFeeTerms } from "./pre-checks";
import { proxyMint, proxySpend, stateWithdrawal, tokenOutput } from "./protocol-parts";
import { loadWalletFunds, requireCollateral } from "./wallet-funds";

const MAX_NAME_BYTES = 32;

function requireAdministrator(deployment: Deployment, admin: KeyHash): void {
  if (!deployment.bootstrapAdministrators.includes(admin)) {
    refuse(
      "ERROR",
      "address is not a bootstrap administrator of this deployment (BOOTSTRAP_ADMINS); an administrator's wallet must pay and sign.",
      { credential: admin },
    );
  }
}

function keyHashes(addresses: readonly string[] | undefined, field: string, networkId: number): KeyHash[] {
  return (addresses ?? []).map((a, i) => {
    try {
      const c = paymentCredentialOf(a);
      if (c?.kind === "key") return c.hash;
    } catch {
      // reported below
    }
    return (
      KeyHash.parse(a) ??
      refuse("ERROR", `bootstrapDatum.${field}[${i}] is not a wallet address (or 56-hex key hash) of network ${networkId}`)
    );
  });
}

/** Validates a requested bootstrap datum. @throws BuildRefusal ERROR */
function bootstrapDatumFrom(b: BootstrapRequest | undefined, pp: ProtocolParameters, networkId: number, now: number): BootstrapDatum {
  if (!b || !b.name) return refuse("ERROR", "bootstrapDatum.name is required");
  const tokenName = Buffer.from(b.name, "utf8").toString("hex");
  if (tokenName.length / 2 > MAX_NAME_BYTES) refuse("ERROR", `bootstrapDatum.name is longer than ${MAX_NAME_BYTES} bytes`);
  const need = (v: bigint | undefined, field: string, min: bigint): bigint => {
    if (v === undefined) return refuse("ERROR", `bootstrapDatum.${field} is required`);
    if (v < min) return refuse("ERROR", `bootstrapDatum.${field} must be at least ${min}`);
    return v;
  };
  const datum: BootstrapDatum = {
    allowedCredentials: keyHashes(b.whitelistedAddresses, "whitelistedAddresses", networkId),
    tokenName,
    fee: need(b.fee ?? 0n, "fee", 0n),
    feeInterval: need(b.feeInterval, "feeInterval", 1n),
    feeReceivers: keyHashes(b.feeReceiverAddresses, "feeReceiverAddresses", networkId),
    ttl: need(b.ttl, "ttl", BigInt(now) + 1n),
    transactionLimit: need(b.transactionLimit, "transactionLimit", 1n),
    batchSize: need(b.batchSize, "batchSize", 1n),
  };
  checkFeeTerms(datum, `bootstrapDatum "${b.name}"`);
  checkBootstrapFeeTerms(datum, `bootstrapDatum "${b.name}"`);
  checkFeeShares(datum, pp, networkId, `bootstrapDatum "${b.name}"`);
  return datum;
}

/** @throws BuildRefusal */
export async function buildMintBootstrap(env: IssuanceEnv, address: string | undefined, requested: BootstrapRequest | undefined) {
  const deployment = requireDeployment(env);
  const admin = keyHashOfAddress(address, env.networkId);
  requireAdministrator(deployment, admin);
  const pp = await env.protocolParameters();
  const datum = bootstrapDatumFrom(requested, pp, env.networkId, env.now());
  // Names are not unique on chain (the validator cannot see other bootstraps): refuse a name a live bootstrap has,
  // confirmed (indexer) or still pending (a submitted transaction creating it).
  const [existing, pending] = await Promise.all([
    env.source.bootstraps({ name: requested!.name }),
    env.registry.pendingOutputWith(deployment.scripts.proxy.policyId, datum.tokenName),
  ]);
  if (existing.length > 0) refuse("ERROR", `Bootstrap datum with name "${requested!.name}" already exists; choose another name.`);
  if (pending)
    refuse(
      "ERROR",
      `Bootstrap datum with name "${requested!.name}" already exists in transaction ${pending.transaction.id}, which is not confirmed yet; choose another name.`,
    );
  const [live, funds] = await Promise.all([loadLiveProtocol(env), loadWalletFunds(env.chain, env.registry, address!)]);
  const collateral = requireCollateral(funds);
  return buildEvaluatedAndClaim(env, {
    utxos: funds.payable,
    changeAddress: address!,
    referenceInputs: [live.pointer],
    mints: [proxyMint(live, { [datum.tokenName]: 1n })],
    withdrawals: [stateWithdrawal(live, "MINT_BOOTSTRAP", [])],
    outputs: [tokenOutput(live, datum.tokenName, encodeBootstrapDatum(datum))],
    requiredSigners: [admin],
    collateral: [collateral],
  });
}

/** @throws BuildRefusal */
export async function buildBurnBootstrap(env: IssuanceEnv, address: string | undefined, name: string | undefined) {
  const deployment = requireDeployment(env);
  const admin = keyHashOfAddress(address, env.networkId);
  requireAdministrator(deployment, admin);
  if (!name) refuse("ERROR", "bootstrapDatum.name is required: the bootstrap datum to burn");
  const [boot] = await env.source.bootstraps({ name });
  if (!boot) refuse("ERROR", `Unknown bootstrap datum "${name}".`);
  const [live, funds] = await Promise.all([loadLiveProtocol(env, [boot.outRef]), loadWalletFunds(env.chain, env.registry, address!)]);
  const collateral = requireCollateral(funds);
  const utxo =
    live.extra.get(outRefKey(boot.outRef)) ??
    refuse("PENDING_TRANSACTION", `Bootstrap "${name}" is not visible on chain right now; retry in a few seconds.`);
  return buildEvaluatedAndClaim(env, {
    utxos: funds.payable,
    changeAddress: address!,
    referenceInputs: [live.pointer],
    scriptInputs: [proxySpend(live, utxo)],
    mints: [proxyMint(live, { [boot.tokenName]: -1n })],
    withdrawals: [stateWithdrawal(live, "BURN_BOOTSTRAP", [])],
    requiredSigners: [admin],
    collateral: [collateral],
  });
}
