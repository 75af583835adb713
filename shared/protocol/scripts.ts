/**
 * Deployment-specific scripts: parameters applied to the blueprint's code with `apply_params_to_script`
 * (params are `data` in the validators, so any CIP-57 applier gives the same hash), script hashes, and the
 * addresses services need (proxy address, state reward address, library address) for network id 0 or 1.
 */
import { applyParamsToScript } from "../csl/plutus-data";
import { plutusScriptHash, scriptAddress, scriptRewardAddress } from "../csl/plutus-script";
import { bytes, constr, type Data, int, list } from "./plutus-data";
import { type Blueprint, loadBlueprint, validatorCode } from "./blueprint";
import type { OutRef } from "../domain/out-ref";
import type { NetworkId } from "../config/network";
import { pointerTokenName } from "./token-names";

export type { NetworkId };

/** Applies Data parameters, in order, to a single-wrapped script; returns the applied single-wrapped hex. */
export const applyParams = applyParamsToScript;

/** blake2b-224 of a Plutus V3 script (single-wrapped hex). */
export function scriptHashOf(code: string): string {
  return plutusScriptHash(code, "plutus:v3");
}

/** Enterprise address whose payment credential is the script. */
export function scriptAddressOf(scriptHash: string, networkId: NetworkId): string {
  return scriptAddress(scriptHash, networkId);
}

/** Reward (stake) address of a script credential: where the withdraw-zero goes. */
export function rewardAddressOf(scriptHash: string, networkId: NetworkId): string {
  return scriptRewardAddress(scriptHash, networkId);
}

export interface AppliedScript {
  /** applied single-wrapped code, hex (witness / reference-script bytes) */
  readonly code: string;
  readonly hash: string;
  /** applied code size in bytes */
  readonly size: number;
}

function applied(code: string): AppliedScript {
  return { code, hash: scriptHashOf(code), size: code.length / 2 };
}

/** An extension's script that is both a minting policy and the address holding its tokens (policy id = hash). */
export interface PolicyScript extends AppliedScript {
  /** enterprise address of the script (no stake part) */
  readonly address: string;
  readonly policyId: string;
}

export function policyScriptOf(code: string, networkId: NetworkId): PolicyScript {
  const script = applied(code);
  return { ...script, address: scriptAddressOf(script.hash, networkId), policyId: script.hash };
}

export function outRefData(ref: OutRef): Data {
  return constr(0, [bytes(ref.txHash), int(ref.index)]);
}

export interface ProtocolScriptParams {
  /** the proxy's one-shot out-ref (`PROXY_TX_HASH` / `PROXY_OUTPUT_INDEX`) */
  readonly proxyOneShot: OutRef;
  /** key hashes allowed to mint and burn bootstraps */
  readonly bootstrapAdministrators: readonly string[];
  /** key hash that may spend library UTxOs */
  readonly libraryAdministrator: string;
  readonly networkId: NetworkId;
}

export interface ProtocolScripts {
  readonly proxy: AppliedScript & { readonly address: string; readonly policyId: string };
  readonly state: AppliedScript & { readonly rewardAddress: string };
  readonly library: AppliedScript & { readonly address: string };
  readonly pointerTokenName: string;
}

/** The committed blueprint's scripts for a configured deployment (PROXY_TX_HASH, SERVICE_KEY_HASH, BOOTSTRAP_ADMINS). */
export function deploymentScripts(
  deployment: { proxyOneShot: OutRef; bootstrapAdministrators: readonly string[]; serviceKeyHash: string },
  networkId: NetworkId,
): ProtocolScripts {
  return deriveProtocolScripts(loadBlueprint(), {
    proxyOneShot: deployment.proxyOneShot,
    bootstrapAdministrators: deployment.bootstrapAdministrators,
    libraryAdministrator: deployment.serviceKeyHash,
    networkId,
  });
}

/** Everything a deployment needs, derived from the blueprint and its parameters. */
export function deriveProtocolScripts(blueprint: Blueprint, p: ProtocolScriptParams): ProtocolScripts {
  const proxy = applied(applyParams(validatorCode(blueprint, "proxy"), [outRefData(p.proxyOneShot)]));
  const pointer = pointerTokenName(p.proxyOneShot);
  const state = applied(
    applyParams(validatorCode(blueprint, "state"), [bytes(proxy.hash), bytes(pointer), list(p.bootstrapAdministrators.map(bytes))]),
  );
  const library = applied(applyParams(validatorCode(blueprint, "library"), [bytes(p.libraryAdministrator)]));
  return {
    proxy: { ...proxy, address: scriptAddressOf(proxy.hash, p.networkId), policyId: proxy.hash },
    state: { ...state, rewardAddress: rewardAddressOf(state.hash, p.networkId) },
    library: { ...library, address: scriptAddressOf(library.hash, p.networkId) },
    pointerTokenName: pointer,
  };
}
