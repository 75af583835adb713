/**
 * The connected-goods extension's scripts for a deployment: connected_goods takes no parameter (its hash is the
 * same wherever the blueprint is), social_hub takes connected_goods' hash. Each script is both a policy and an
 * address, so the policy id is the script hash. The service and its indexer accept only batches whose
 * `hub_policy` is this deployment's social_hub hash; a batch naming anything else can only hurt its own issuer
 * (its items can never mint a hub the service shows).
 */
import { bytes } from "../../protocol/plutus-data";
import { type Blueprint, validatorCode } from "../../protocol/blueprint";
import { applyParams, policyScriptOf, type NetworkId, type PolicyScript } from "../../protocol/scripts";

export interface ConnectedGoodsScripts {
  readonly connectedGoods: PolicyScript;
  readonly socialHub: PolicyScript;
}

export function deriveConnectedGoodsScripts(blueprint: Blueprint, networkId: NetworkId): ConnectedGoodsScripts {
  const connectedGoods = policyScriptOf(validatorCode(blueprint, "connected_goods"), networkId);
  const socialHub = policyScriptOf(applyParams(validatorCode(blueprint, "social_hub"), [bytes(connectedGoods.hash)]), networkId);
  return { connectedGoods, socialHub };
}
