/**
 * Library administration (docs/decisions.md#library-administration): upgrade the proxy to a new state script, and undeploy library
 * reference-script UTxOs that no longer serve anything. Both are built for the service wallet (pointer owner and
 * library administrator), which signs them.
 *
 * Upgrade, in one transaction: the pointer is spent with ADMIN and re-created with `script_pointer` = the new state
 * script (the old owner signs); the new script's stake credential is registered (withdraw-zero needs it); and, when
 * the new script is given as code, it is stored at the library as a reference script. States created before keep
 * working as long as the new script accepts their datums (the proxy only asks that the pointer's script is withdrawn
 * from). "Active" library entries are the proxy script and the script the pointer names; everything else can go.
 */
import { outRefOf, type OgmiosUtxo } from "../csl/utxo";
import { plutusScriptHash } from "../csl";
import {
  constr,
  dataToCborHex,
  deriveProtocolScripts,
  encodeProxyDatum,
  encodeProxyRedeemer,
  loadBlueprint,
  type NetworkId,
} from "../protocol";
import { refuse } from "./build-outcome";
import { keyHashOfAddress } from "./build-request";
import { buildEvaluatedAndClaim } from "./evaluated-build";
import type { Deployment, IssuanceEnv } from "./issuance-env";
import { HEX_PATTERNS, HexBytes, KeyHash, TxHash } from "../domain/hex";
import { outRefKey } from "../domain/out-ref";
import { loadLiveProtocol, requireDeployment } from "./live-protocol";
import { proxyWitness, tokenOutput } from "./protocol-parts";
import { loadWalletFunds } from "./wallet-funds";

/** What the upgrade body names: a transaction that already carries the new reference script, or the script itself. */
export type UpgradeTarget = { referenceTxHash: TxHash } | { code: HexBytes };

/** How the new script is checked: by default it must be this deployment's state script (see `requireStateScriptFor`). */
export interface UpgradeOptions {
  /** the bootstrap administrators the new state script is applied with (default: the deployment's) */
  bootstrapAdministrators?: readonly KeyHash[];
  /** upgrade to any script that evaluates: an explicit decision of the administrator */
  force?: boolean;
}

/**
 * Parses the upgrade's query options: `bootstrapAdministrators` (comma-separated key hashes), `force` (`true`).
 * @throws BuildRefusal ERROR naming the bad option
 */
export function parseUpgradeOptions(raw: { bootstrapAdministrators?: unknown; force?: unknown }): UpgradeOptions {
  const options: UpgradeOptions = {};
  if (raw.force !== undefined) {
    if (raw.force !== "true" && raw.force !== "false" && typeof raw.force !== "boolean") refuse("ERROR", "force must be true or false.");
    options.force = raw.force === true || raw.force === "true";
  }
  if (raw.bootstrapAdministrators !== undefined) {
    const list =
      typeof raw.bootstrapAdministrators === "string" ? raw.bootstrapAdministrators.split(",").map((x) => KeyHash.parse(x.trim())) : [];
    const keys = list.filter((k) => k !== undefined);
    if (list.length === 0 || list.length > 16 || keys.length !== list.length) {
      refuse("ERROR", "bootstrapAdministrators must be up to 16 comma-separated payment key hashes (56 hex digits each).");
    }
    options.bootstrapAdministrators = keys;
  }
  return options;
}

/**
 * Only a state script for THIS proxy may take over the pointer: the blueprint's state validator applied to this
 * deployment's proxy policy, pointer token name and the bootstrap administrators (the deployment's, or those named).
 * Re-applying them and comparing hashes proves it; anything else needs `force`.
 * @throws BuildRefusal ERROR naming the expected hash
 */
function requireStateScriptFor(deployment: Deployment, networkId: NetworkId, newHash: string, options: UpgradeOptions): void {
  if (options.force) return;
  const administrators = options.bootstrapAdministrators ?? deployment.bootstrapAdministrators;
  const expected = deriveProtocolScripts(loadBlueprint(), {
    proxyOneShot: deployment.oneShot,
    bootstrapAdministrators: administrators,
    libraryAdministrator: deployment.serviceKeyHash,
    networkId,
  }).state.hash;
  if (newHash === expected) return;
  refuse(
    "ERROR",
    `Script ${newHash} is not a state script for this proxy: the blueprint's state validator with proxy policy ${deployment.scripts.proxy.policyId}, pointer ${deployment.scripts.pointerTokenName} and bootstrap administrators [${administrators.join(", ")}] has hash ${expected}. Name other administrators with ?bootstrapAdministrators=…, or add ?force=true to upgrade to another script on purpose.`,
    { expectedScriptHash: expected },
  );
}

/**
 * The upgrade body is a JSON string or raw text: 64 hex digits name a transaction; longer hex is compiled code.
 * @throws BuildRefusal ERROR for anything else
 */
export function parseUpgradeTarget(raw: unknown): UpgradeTarget {
  const text = typeof raw === "string" ? raw.trim().replace(/^"|"$/g, "") : "";
  if (text === "" || !HEX_PATTERNS.bytes.test(text)) {
    return refuse(
      "ERROR",
      "The body must be a JSON string or raw text holding either the hash of a transaction that carries the new state script as a reference script (64 hex digits) or the new state script's compiled code (hex CBOR, parameters applied).",
    );
  }
  return text.length === 64 ? { referenceTxHash: TxHash(text) } : { code: HexBytes(text) };
}

function requireServiceWallet(env: IssuanceEnv, address: string | undefined): string {
  const deployment = requireDeployment(env);
  if (keyHashOfAddress(address, env.networkId) !== deployment.serviceKeyHash) {
    refuse("ERROR", "address must be the service wallet (SERVICE_KEY_HASH): it owns the proxy pointer and administers the library.");
  }
  return address!;
}

/** @throws BuildRefusal */
export async function buildUpgrade(env: IssuanceEnv, address: string | undefined, target: UpgradeTarget, options: UpgradeOptions = {}) {
  const payer = requireServiceWallet(env, address);
  const live = await loadLiveProtocol(env);
  const deployment = live.deployment;
  let newHash: string;
  let referenceUtxo: OgmiosUtxo | undefined;
  if ("code" in target) {
    try {
      newHash = plutusScriptHash(target.code);
    } catch {
      return refuse("ERROR", "The compiled code is not a Plutus V3 script.");
    }
  } else {
    const { library } = await env.source.protocol();
    const entries = library.filter((l) => l.outRef.txHash === target.referenceTxHash);
    const found = (await env.chain.utxosByOutputReferences(entries.map((l) => l.outRef))) as OgmiosUtxo[];
    referenceUtxo = found.find(
      (u) => u.script && u.script.language === "plutus:v3" && plutusScriptHash(u.script.cbor) !== deployment.scripts.proxy.hash,
    );
    if (!referenceUtxo?.script || referenceUtxo.script.language === "native") {
      return refuse(
        "ERROR",
        `Transaction ${target.referenceTxHash} has no unspent library output carrying a state script (deploy it to the library first, signed by the service wallet).`,
      );
    }
    newHash = plutusScriptHash(referenceUtxo.script.cbor);
  }
  if (newHash === live.stateHash) refuse("ERROR", `The proxy already points at state script ${newHash}.`);
  requireStateScriptFor(deployment, env.networkId, newHash, options);

  const [funds, pp] = await Promise.all([loadWalletFunds(env.chain, env.registry, payer), env.protocolParameters()]);
  const unit = dataToCborHex(constr(0));
  const pointerDatum = encodeProxyDatum({ scriptPointer: newHash, scriptOwner: deployment.serviceKeyHash });
  return buildEvaluatedAndClaim(env, {
    utxos: funds.payable,
    // the dedicated collateral when there is one; else CSL puts up the largest ADA-only UTxO (it may pay too)
    ...(funds.collateral ? { collateral: [funds.collateral] } : {}),
    changeAddress: payer,
    scriptInputs: [{ utxo: live.pointer, script: proxyWitness(live), redeemer: dataToCborHex(encodeProxyRedeemer("ADMIN")) }],
    ...(referenceUtxo ? { referenceInputs: [referenceUtxo] } : {}),
    outputs: [
      tokenOutput(live, deployment.scripts.pointerTokenName, pointerDatum, BigInt(live.pointer.value.ada.lovelace)),
      ...("code" in target
        ? [
            {
              address: deployment.scripts.library.address,
              inlineDatum: unit,
              referenceScript: { language: "plutus:v3" as const, cbor: target.code },
            },
          ]
        : []),
    ],
    certificates: [
      {
        kind: "register" as const,
        script: referenceUtxo
          ? { language: "plutus:v3" as const, referenceUtxo }
          : { language: "plutus:v3" as const, cbor: "code" in target ? target.code : "" },
        deposit: BigInt(pp.stakeCredentialDeposit.ada.lovelace),
        redeemer: unit,
      },
    ],
    requiredSigners: [deployment.serviceKeyHash],
  });
}

/**
 * Spends library UTxOs back to the service wallet: the named one, or (`unused`) every one that is not active.
 * @returns the built transaction, or null when `unused` finds nothing to undeploy
 * @throws BuildRefusal
 */
export async function buildUndeploy(
  env: IssuanceEnv,
  address: string | undefined,
  which: { outRef: { txHash: string; index: number } } | "unused",
) {
  const payer = requireServiceWallet(env, address);
  const deployment = requireDeployment(env);
  const { pointer, library } = await env.source.protocol();
  const active = new Set([deployment.scripts.proxy.hash, pointer?.scriptPointer ?? deployment.scripts.state.hash]);
  const onChain = (await env.chain.utxosByAddresses([deployment.scripts.library.address])) as OgmiosUtxo[];
  const hashOf = (u: OgmiosUtxo) => (u.script && u.script.language !== "native" ? plutusScriptHash(u.script.cbor) : undefined);
  let targets: OgmiosUtxo[];
  if (which === "unused") {
    if (onChain.length === 0 && library.length === 0) refuse("ERROR", "No contracts found in library.");
    targets = onChain.filter((u) => !active.has(hashOf(u) ?? ""));
    if (targets.length === 0) return null;
  } else {
    const u = onChain.find((x) => outRefKey(outRefOf(x)) === outRefKey(which.outRef));
    if (!u || active.has(hashOf(u) ?? ""))
      refuse("ERROR", "The library entry is either not found or is an active contract and cannot be undeployed.");
    targets = [u!];
  }
  const funds = await loadWalletFunds(env.chain, env.registry, payer);
  const library_script = { language: "plutus:v3" as const, cbor: deployment.scripts.library.code };
  return buildEvaluatedAndClaim(env, {
    utxos: funds.payable,
    // the dedicated collateral when there is one; else CSL puts up the largest ADA-only UTxO (it may pay too)
    ...(funds.collateral ? { collateral: [funds.collateral] } : {}),
    changeAddress: payer,
    scriptInputs: targets.map((utxo) => ({ utxo, script: library_script, redeemer: dataToCborHex(constr(0)) })),
    requiredSigners: [deployment.serviceKeyHash],
  });
}
