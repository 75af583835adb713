/**
 * The list's config, written once into the HEAD at Init and copied unchanged by every later transition:
 * `Constr 0 [service_validator_hash (28 bytes), allowed_inserters ([28 bytes]), deployer (28 bytes)]`.
 */
import { punBData, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { FractionizedConfig } from "./types";
import { CREDENTIAL_HASH_BYTES } from "../lib/addresses";
import type { AnyTerm } from "../lib/term";

export const configOf = (configData: AnyTerm): AnyTerm => punsafeConvertType(configData, FractionizedConfig.type);

export function isWellFormedConfig(config: AnyTerm): AnyTerm {
  return config.raw.index
    .eq(0)
    .and(config.raw.fields.length.eq(3))
    .and(config.serviceValidatorHash.length.eq(CREDENTIAL_HASH_BYTES))
    .and(config.deployer.length.eq(CREDENTIAL_HASH_BYTES))
    .and(config.allowedInserters.every((k: AnyTerm) => punBData.$(k).length.eq(CREDENTIAL_HASH_BYTES)));
}
