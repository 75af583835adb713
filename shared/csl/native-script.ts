/** Native (timelock) scripts: Ogmios JSON clauses ↔ CSL. */
import type { ScriptNative } from "@cardano-ogmios/schema";
import { CSL } from "./lib";
import { withFreed, type Own } from "./scope";
import { CslError } from "./errors";
import { bn, fromBn } from "./numbers";

export type { ScriptNative };

/** The CSL form of an Ogmios native script; the caller owns (and frees) the result. */
export function nativeScriptFromOgmios(s: ScriptNative): CSL.NativeScript {
  return withFreed((own) => buildNativeScript(s, own));
}

/** Every intermediate object is registered with `own`, the result is not. */
function buildNativeScript(s: ScriptNative, own: Own): CSL.NativeScript {
  const list = (xs: ScriptNative[]): CSL.NativeScripts => {
    const out = own(CSL.NativeScripts.new());
    for (const x of xs) out.add(own(buildNativeScript(x, own)));
    return out;
  };
  switch (s.clause) {
    case "signature":
      return CSL.NativeScript.new_script_pubkey(own(CSL.ScriptPubkey.new(own(CSL.Ed25519KeyHash.from_hex(s.from)))));
    case "all":
      return CSL.NativeScript.new_script_all(own(CSL.ScriptAll.new(list(s.from))));
    case "any":
      return CSL.NativeScript.new_script_any(own(CSL.ScriptAny.new(list(s.from))));
    case "some":
      return CSL.NativeScript.new_script_n_of_k(own(CSL.ScriptNOfK.new(Number(s.atLeast), list(s.from))));
    case "before": // valid strictly before the slot
      return CSL.NativeScript.new_timelock_expiry(own(CSL.TimelockExpiry.new_timelockexpiry(own(bn(s.slot, "slot")))));
    case "after":
      return CSL.NativeScript.new_timelock_start(own(CSL.TimelockStart.new_timelockstart(own(bn(s.slot, "slot")))));
    default:
      throw new CslError("INVALID_SCRIPT", "unknown native script clause", { clause: (s as { clause: unknown }).clause });
  }
}

export function nativeScriptToOgmios(s: CSL.NativeScript): ScriptNative {
  const list = (xs: CSL.NativeScripts): ScriptNative[] => {
    const out: ScriptNative[] = [];
    for (let i = 0; i < xs.len(); i++) out.push(nativeScriptToOgmios(xs.get(i)));
    return out;
  };
  switch (s.kind()) {
    case CSL.NativeScriptKind.ScriptPubkey:
      return { clause: "signature", from: s.as_script_pubkey()!.addr_keyhash().to_hex() };
    case CSL.NativeScriptKind.ScriptAll:
      return { clause: "all", from: list(s.as_script_all()!.native_scripts()) };
    case CSL.NativeScriptKind.ScriptAny:
      return { clause: "any", from: list(s.as_script_any()!.native_scripts()) };
    case CSL.NativeScriptKind.ScriptNOfK: {
      const k = s.as_script_n_of_k()!;
      return { clause: "some", atLeast: BigInt(k.n()), from: list(k.native_scripts()) };
    }
    case CSL.NativeScriptKind.TimelockExpiry:
      return { clause: "before", slot: Number(fromBn(s.as_timelock_expiry()!.slot_bignum())) };
    default:
      return { clause: "after", slot: Number(fromBn(s.as_timelock_start()!.slot_bignum())) };
  }
}

/** Policy id / script hash of a native script given as CBOR hex. */
export function nativeScriptHash(cborHex: string): string {
  return withFreed((own) => own(own(CSL.NativeScript.from_hex(cborHex)).hash()).to_hex());
}
