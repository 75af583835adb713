/**
 * Reading the CIP-57 blueprint (onchain/plutus.json) that `npm run build:onchain` writes.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { ValidatorName } from "../../onchain/validator-names";
import { ProtocolError } from "./errors";

/** The validators' names, as the on-chain build writes them (a type only: nothing of onchain/ is loaded). */
export type { ValidatorName };

export interface BlueprintValidator {
  readonly title: string;
  readonly compiledCode: string;
  readonly hash: string;
}

export interface Blueprint {
  readonly preamble: { readonly title: string; readonly plutusVersion: string };
  readonly validators: readonly BlueprintValidator[];
}

/** The shipped blueprint's path in the repository. */
export const DEFAULT_BLUEPRINT_PATH = path.join(__dirname, "..", "..", "onchain", "plutus.json");
/** The trace build (rule names logged on failure); for debugging and tests, never deploy it. */
export const TRACE_BLUEPRINT_PATH = path.join(__dirname, "..", "..", "onchain", "plutus-trace.json");

/** @throws ProtocolError INVALID_BLUEPRINT */
export function parseBlueprint(json: string): Blueprint {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (err) {
    throw new ProtocolError("INVALID_BLUEPRINT", `blueprint is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const bp = parsed as Partial<Blueprint>;
  if (!bp || !bp.preamble || bp.preamble.plutusVersion !== "v3" || !Array.isArray(bp.validators)) {
    throw new ProtocolError("INVALID_BLUEPRINT", "blueprint lacks a v3 preamble or validators");
  }
  for (const v of bp.validators) {
    if (typeof v?.title !== "string" || typeof v.compiledCode !== "string" || typeof v.hash !== "string") {
      throw new ProtocolError("INVALID_BLUEPRINT", "blueprint validator lacks title, compiledCode or hash");
    }
  }
  return bp as Blueprint;
}

/** @throws ProtocolError INVALID_BLUEPRINT */
export function loadBlueprint(file: string = DEFAULT_BLUEPRINT_PATH): Blueprint {
  return parseBlueprint(readFileSync(file, "utf8"));
}

/**
 * The unapplied compiled code (single CBOR-wrapped flat, hex) of a validator; every handler of a
 * multi-purpose validator carries the same code.
 * @throws ProtocolError UNKNOWN_VALIDATOR
 */
export function validatorCode(blueprint: Blueprint, name: ValidatorName): string {
  const v = blueprint.validators.find((x) => x.title.startsWith(`${name}.`));
  if (!v) throw new ProtocolError("UNKNOWN_VALIDATOR", `validator ${name} is not in the blueprint`, { name });
  return v.compiledCode;
}
