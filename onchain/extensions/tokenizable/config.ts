/**
 * The list's config, written once into the HEAD at Init and copied unchanged by every later transition:
 * `Constr 0 [service_validator_hash (28 bytes), allowed_inserters ([28 bytes]), deployer (28 bytes),
 * cip68_script_hash (Option<28 bytes>)]`.
 */
import { plet, punBData, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { TokenizableConfig } from "./types";
import { CREDENTIAL_HASH_BYTES } from "../../lib/addresses";
import { isWellFormedListConfig } from "../sorted-list/node-rules";
import { PAnyConstr } from "../../lib/constr-data";
import { OPTION_NONE, OPTION_SOME } from "../../lib/option";
import type { AnyTerm } from "../../lib/term";

export const configOf = (configData: AnyTerm): AnyTerm => punsafeConvertType(configData, TokenizableConfig.type);

/** The config's `cip68_script_hash` as a raw Constr view (index OPTION_SOME / OPTION_NONE, fields). */
export const cip68OptionOf = (config: AnyTerm): AnyTerm => punsafeConvertType(config.cip68ScriptHash, PAnyConstr.type);

export function isWellFormedConfig(config: AnyTerm): AnyTerm {
  return isWellFormedListConfig(config, 4).and(
    plet(cip68OptionOf(config)).in((o: AnyTerm) =>
      plet(o.raw.fields).in((of: AnyTerm) =>
        o.raw.index
          .eq(OPTION_NONE)
          .and(of.length.eq(0))
          .or(o.raw.index.eq(OPTION_SOME).and(of.length.eq(1)).and(punBData.$(of.head).length.eq(CREDENTIAL_HASH_BYTES))),
      ),
    ),
  );
}
