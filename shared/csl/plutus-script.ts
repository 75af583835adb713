/**
 * Plutus script byte encodings (docs/architecture.md#csl, trap 1):
 *  - flat: the raw UPLC program (what plu-ts `compile()` returns);
 *  - single-wrapped: one CBOR byte string around flat (Aiken `compiledCode`, Ogmios `script.cbor`,
 *    the bytes `PlutusScript.new_v3` wants);
 *  - double-wrapped: CBOR byte string around the single-wrapped bytes (text-envelope `cborHex`,
 *    Helios `toCbor()`, what `PlutusScript.from_bytes_v3` wants).
 * Giving CSL the wrong level silently yields a different script hash, so every script enters through here.
 */
import { HexBytes } from "../domain/hex";
import { CSL } from "./lib";
import { withFreed } from "./scope";
import { BoundedMemo } from "./memo";
import { cborBytes, unwrapCborBytes } from "./cbor";
import { CslError } from "./errors";
import { fromHex, toHex } from "./hex";

export type PlutusLanguage = "plutus:v1" | "plutus:v2" | "plutus:v3";
export type ScriptWrapping = "flat" | "single" | "double";

/** How many CBOR byte-string layers wrap the flat program. A flat program never parses as exactly one byte string. */
export function detectScriptWrapping(hex: string): ScriptWrapping {
  const b = fromHex(hex, "script");
  const one = unwrapCborBytes(b);
  if (!one) return "flat";
  const two = unwrapCborBytes(one);
  if (!two) return "single";
  if (unwrapCborBytes(two)) {
    throw new CslError("INVALID_SCRIPT", "script has more than two CBOR byte-string layers", { length: b.length });
  }
  return "double";
}

/** Flat program → single-wrapped (one CBOR byte string). */
export function singleWrapFlat(flatHex: string): string {
  return toHex(cborBytes(fromHex(flatHex, "script")));
}

/** Any of the three encodings → single-wrapped. */
export function toSingleWrapped(hex: string): string {
  switch (detectScriptWrapping(hex)) {
    case "flat":
      return singleWrapFlat(hex);
    case "single":
      return HexBytes(hex);
    case "double":
      return toHex(unwrapCborBytes(fromHex(hex)) as Uint8Array);
  }
}

/** Single-wrapped → flat. */
export function flatOf(hex: string): string {
  const single = fromHex(toSingleWrapped(hex));
  return toHex(unwrapCborBytes(single) as Uint8Array);
}

export function cslLanguage(lang: PlutusLanguage): CSL.Language {
  switch (lang) {
    case "plutus:v1":
      return CSL.Language.new_plutus_v1();
    case "plutus:v2":
      return CSL.Language.new_plutus_v2();
    case "plutus:v3":
      return CSL.Language.new_plutus_v3();
    default:
      throw new CslError("INVALID_SCRIPT", `unknown Plutus language ${String(lang)}`, { language: lang });
  }
}

const LANGUAGE_NAMES: Record<CSL.LanguageKind, PlutusLanguage> = {
  [CSL.LanguageKind.PlutusV1]: "plutus:v1",
  [CSL.LanguageKind.PlutusV2]: "plutus:v2",
  [CSL.LanguageKind.PlutusV3]: "plutus:v3",
};

export function languageName(l: CSL.Language): PlutusLanguage {
  return LANGUAGE_NAMES[l.kind()];
}

/**
 * CSL PlutusScript from the single-wrapped bytes. Refuses flat or double-wrapped input instead of
 * silently hashing it wrong. @throws CslError INVALID_SCRIPT
 */
export function plutusScriptFromSingleWrapped(singleHex: string, lang: PlutusLanguage = "plutus:v3"): CSL.PlutusScript {
  const wrapping = detectScriptWrapping(singleHex);
  if (wrapping !== "single") {
    throw new CslError("INVALID_SCRIPT", `expected a single CBOR-wrapped script, got ${wrapping}`, { wrapping });
  }
  return withFreed((own) => CSL.PlutusScript.new_with_version(fromHex(singleHex), own(cslLanguage(lang))));
}

/** CSL PlutusScript from any encoding (normalised first). */
export function plutusScriptFromAny(hex: string, lang: PlutusLanguage = "plutus:v3"): CSL.PlutusScript {
  return plutusScriptFromSingleWrapped(toSingleWrapped(hex), lang);
}

/**
 * Script hashes by language, then CBOR: the indexer meets the same scripts in block after block (reference scripts,
 * witnesses), and each hash through CSL costs a copy into wasm.
 */
const scriptHashes = new Map<PlutusLanguage, BoundedMemo<string>>();
const SCRIPT_HASHES_KEPT = 32;

/** Script hash (policy id / script credential), 56 hex, of a script in any encoding. */
export function plutusScriptHash(hex: string, lang: PlutusLanguage = "plutus:v3"): string {
  let hashes = scriptHashes.get(lang);
  if (hashes === undefined) {
    hashes = new BoundedMemo(SCRIPT_HASHES_KEPT, (cbor) => withFreed((own) => own(own(plutusScriptFromAny(cbor, lang)).hash()).to_hex()));
    scriptHashes.set(lang, hashes);
  }
  return hashes.get(hex);
}

/** Bech32 enterprise address of a script (payment credential = script hash). */
export function scriptAddress(scriptHashHex: string, networkId: number, stakeKeyHashHex?: string): string {
  return withFreed((own) => {
    const pay = own(CSL.Credential.from_scripthash(own(CSL.ScriptHash.from_hex(scriptHashHex))));
    if (stakeKeyHashHex) {
      const stake = own(CSL.Credential.from_keyhash(own(CSL.Ed25519KeyHash.from_hex(stakeKeyHashHex))));
      return own(own(CSL.BaseAddress.new(networkId, pay, stake)).to_address()).to_bech32();
    }
    return own(own(CSL.EnterpriseAddress.new(networkId, pay)).to_address()).to_bech32();
  });
}

/** Bech32 reward address of a script stake credential (for withdraw-zero validators). */
export function scriptRewardAddress(scriptHashHex: string, networkId: number): string {
  return withFreed((own) => {
    const cred = own(CSL.Credential.from_scripthash(own(CSL.ScriptHash.from_hex(scriptHashHex))));
    return own(own(CSL.RewardAddress.new(networkId, cred)).to_address()).to_bech32();
  });
}
