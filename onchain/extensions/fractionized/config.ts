/**
 * The list's config, written once into the HEAD at Init and copied unchanged by every later transition:
 * `Constr 0 [service_validator_hash (28 bytes), allowed_inserters ([28 bytes]), deployer (28 bytes)]`.
 */
import { punsafeConvertType } from "@harmoniclabs/plu-ts";
import { FractionizedConfig } from "./types";
import { isWellFormedListConfig } from "../sorted-list/node-rules";
import type { AnyTerm } from "../../lib/term";

export const configOf = (configData: AnyTerm): AnyTerm => punsafeConvertType(configData, FractionizedConfig.type);

export const isWellFormedConfig = (config: AnyTerm): AnyTerm => isWellFormedListConfig(config, 3);
