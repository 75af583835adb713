/**
 * `Option<ByteArray>` as the extensions' datums store it (list links, profile fields): Some = Constr 0 [x],
 * None = Constr 1 [] (Aiken / PlutusTx layout); the off-chain twin is `optionBytes` in shared/protocol/plutus-data.ts.
 */
import { bs, data, pBSToData, pConstrToData, pnil, pstruct } from "@harmoniclabs/plu-ts";
import type { AnyTerm } from "./term";

export const OPTION_SOME = 0;
export const OPTION_NONE = 1;

/** To read an Option through `raw.index` / `raw.fields`. */
export const OptionBytes = pstruct({ Some: { value: bs }, None: {} });

export function someBytesData(value: AnyTerm): AnyTerm {
  return pConstrToData.$(OPTION_SOME).$(pnil(data).prepend(pBSToData.$(value)));
}

export function noneData(): AnyTerm {
  return pConstrToData.$(OPTION_NONE).$(pnil(data));
}
