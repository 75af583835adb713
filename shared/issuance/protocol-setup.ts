/**
 * `init` (docs/api.md#init-and-deploy) and `deploy`: the service wallet mints the proxy pointer by spending the
 * configured one-shot out-ref, then stores the proxy and state scripts as reference scripts at the library
 * address and registers the state script's stake credential (withdraw-zero needs it). Both are signed by the
 * service key; both refuse with ERROR when already done.
 */
import { constr, dataToCborHex, deriveProtocolScripts, encodeProxyDatum, encodeProxyRedeemer, loadBlueprint } from "../protocol";
import { outRefOf, utxoKey, type OgmiosUtxo } from "../csl/utxo";
import { refuse } from "./build-outcome";
import { keyHashOfAddress } from "./build-request";
import { buildEvaluatedAndClaim } from "./evaluated-build";
import type { Deployment, IssuanceEnv } from "./issuance-env";
import { outRefKey } from "../domain/out-ref";
import { loadWalletFunds } from "./wallet-funds";

export interface InitResult {
  cborHex: string;
  txId: string;
  proxyTxHash: string;
  proxyOutputIndex: number;
}

/** Without a configured deployment the first UTxO of `address` becomes the one-shot (the operator then configures it). */
function deploymentFor(env: IssuanceEnv, address: string | undefined, first: OgmiosUtxo | undefined): Deployment {
  if (env.deployment) return env.deployment;
  const service = keyHashOfAddress(address, env.networkId);
  if (!first) return refuse("INSUFFICIENT_FUNDS", `No UTxOs found for address ${address}; fund the service wallet first.`);
  const oneShot = { txHash: first.transaction.id, index: first.index };
  const scripts = deriveProtocolScripts(loadBlueprint(), {
    proxyOneShot: oneShot,
    bootstrapAdministrators: [service],
    libraryAdministrator: service,
    networkId: env.networkId,
  });
  return { scripts, oneShot, bootstrapAdministrators: [service], serviceKeyHash: service };
}

/** @throws BuildRefusal */
export async function buildInit(env: IssuanceEnv, address: string | undefined): Promise<InitResult> {
  let oneShotUtxo: OgmiosUtxo | undefined;
  let deployment: Deployment;
  if (env.deployment) {
    deployment = env.deployment;
    const { pointer } = await env.source.protocol();
    const shot = deployment.oneShot;
    if (pointer) {
      refuse(
        "ERROR",
        `Existing proxy contract found with transaction hash ${shot.txHash} and output index ${shot.index}; it is initialised already — use it (PROXY_TX_HASH / PROXY_OUTPUT_INDEX).`,
        {
          proxyTxHash: shot.txHash,
          proxyOutputIndex: shot.index,
        },
      );
    }
    [oneShotUtxo] = (await env.chain.utxosByOutputReferences([shot])) as OgmiosUtxo[];
    if (!oneShotUtxo) {
      refuse(
        "ERROR",
        `The configured one-shot output ${outRefKey(shot)} is spent or unknown: the proxy is initialised already or PROXY_TX_HASH is wrong.`,
      );
    }
  } else {
    keyHashOfAddress(address, env.networkId);
    // The one-shot is a confirmed UTxO coin selection may spend: never the wallet's dedicated collateral.
    const [funds, confirmed] = await Promise.all([
      loadWalletFunds(env.chain, env.registry, address!),
      env.chain.utxosByAddresses([address!]) as Promise<OgmiosUtxo[]>,
    ]);
    const onChain = new Set(confirmed.map(utxoKey));
    oneShotUtxo = funds.payable
      .filter((u) => onChain.has(utxoKey(u)))
      .sort((a, b) => (a.transaction.id < b.transaction.id ? -1 : a.transaction.id > b.transaction.id ? 1 : a.index - b.index))[0];
    if (!oneShotUtxo)
      refuse("INSUFFICIENT_FUNDS", "The address has no confirmed UTxO besides its dedicated collateral to use as the proxy's one-shot.");
    deployment = deploymentFor(env, address, oneShotUtxo);
  }
  const payer = oneShotUtxo!.address;
  const funds = await loadWalletFunds(env.chain, env.registry, payer);
  const scripts = deployment.scripts;
  const built = await buildEvaluatedAndClaim(env, {
    utxos: funds.payable,
    // the dedicated collateral when there is one; else CSL puts up the largest ADA-only UTxO (it may pay too)
    ...(funds.collateral ? { collateral: [funds.collateral] } : {}),
    keyInputs: [oneShotUtxo!],
    changeAddress: payer,
    mints: [
      {
        policy: { language: "plutus:v3", cbor: scripts.proxy.code },
        redeemer: dataToCborHex(encodeProxyRedeemer("ADMIN")),
        assets: { [scripts.pointerTokenName]: 1n },
      },
    ],
    outputs: [
      {
        address: scripts.proxy.address,
        assets: { [scripts.proxy.policyId]: { [scripts.pointerTokenName]: 1n } },
        inlineDatum: dataToCborHex(encodeProxyDatum({ scriptPointer: scripts.state.hash, scriptOwner: deployment.serviceKeyHash })),
      },
    ],
    requiredSigners: [deployment.serviceKeyHash],
  });
  return { ...built, proxyTxHash: deployment.oneShot.txHash, proxyOutputIndex: deployment.oneShot.index };
}

/** @throws BuildRefusal */
export async function buildDeploy(env: IssuanceEnv, address: string | undefined) {
  if (!env.deployment)
    refuse("ERROR", "No protocol deployment is configured (PROXY_TX_HASH / SERVICE_KEY_HASH); build `init`, configure it, then deploy.");
  const deployment = env.deployment;
  const payer = keyHashOfAddress(address, env.networkId);
  if (payer !== deployment.serviceKeyHash)
    refuse("ERROR", "address must be the service wallet (SERVICE_KEY_HASH): the library administrator pays and signs the deployment.");
  const scripts = deployment.scripts;
  const { library } = await env.source.protocol();
  const wanted = library.filter((l) => l.scriptHash === scripts.proxy.hash || l.scriptHash === scripts.state.hash);
  const live = (await env.chain.utxosByOutputReferences(wanted.map((l) => l.outRef))) as OgmiosUtxo[];
  const liveHashes = new Set(
    wanted.filter((l) => live.some((u) => outRefKey(l.outRef) === outRefKey(outRefOf(u)))).map((l) => l.scriptHash),
  );
  const missing = [scripts.proxy, scripts.state].filter((s) => !liveHashes.has(s.hash));
  if (missing.length === 0) refuse("ERROR", "The library already holds the proxy and state reference scripts: the protocol is deployed.");
  const [funds, pp] = await Promise.all([loadWalletFunds(env.chain, env.registry, address!), env.protocolParameters()]);
  const unit = dataToCborHex(constr(0));
  const registerStake = missing.includes(scripts.state);
  return buildEvaluatedAndClaim(env, {
    utxos: funds.payable,
    // the dedicated collateral when there is one; else CSL puts up the largest ADA-only UTxO (it may pay too)
    ...(funds.collateral ? { collateral: [funds.collateral] } : {}),
    changeAddress: address!,
    outputs: missing.map((s) => ({
      address: scripts.library.address,
      inlineDatum: unit,
      referenceScript: { language: "plutus:v3", cbor: s.code },
    })),
    ...(registerStake
      ? {
          certificates: [
            {
              kind: "register" as const,
              script: { language: "plutus:v3" as const, cbor: scripts.state.code },
              deposit: BigInt(pp.stakeCredentialDeposit.ada.lovelace),
              redeemer: unit,
            },
          ],
        }
      : {}),
    requiredSigners: [deployment.serviceKeyHash],
  });
}
