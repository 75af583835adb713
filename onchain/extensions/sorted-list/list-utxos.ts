/**
 * Finding the list's own UTxOs in a transaction. Every HEAD and node lives at the script's enterprise address
 * (payment credential = the script, no stake part) and holds only ADA and its one list token, so nobody can
 * bloat an entry with other assets or move it under a stake credential of their choosing.
 */
import {
  bool,
  data,
  int,
  list,
  pair,
  pBSToData,
  pConstrToData,
  peqData,
  pfn,
  phead,
  phoist,
  pIntToData,
  plet,
  pMapToData,
  pnil,
  ppairData,
  psndPair,
  ptail,
  punConstrData,
  punMapData,
  punsafeConvertType,
} from "@harmoniclabs/plu-ts";
import { isScriptAddress } from "../../lib/addresses";
import type { AnyTerm } from "../../lib/term";

/** Inputs spent from the script's payment credential (any stake part). */
export function listInputsOf(tx: AnyTerm, own: AnyTerm): AnyTerm {
  return tx.inputs.filter((i: AnyTerm) => isScriptAddress(i.resolved.address, own));
}

/** Outputs holding one `name` token of the list's policy. */
export function outputsHolding(outputs: AnyTerm, own: AnyTerm, name: AnyTerm): AnyTerm {
  return outputs.filter((o: AnyTerm) => o.value.pamountOf.$(own).$(name).eq(1));
}

/** Reference inputs holding the HEAD token (unique: minted once, at Init). */
export function headReferencesOf(tx: AnyTerm, own: AnyTerm, headName: AnyTerm): AnyTerm {
  return tx.refInputs.filter((i: AnyTerm) => i.resolved.value.pamountOf.$(own).$(headName).eq(1));
}

/**
 * A closed, hoisted check (output, expected address, expected non-ADA value; all as Data) → bool: the output's
 * address equals the list address and its value is ADA plus exactly the expected tokens, two equalsData calls.
 * Written with bare builtins over Data, so it adds none of the implicit lets that struct field access compiles
 * to (plu-ts 0.9.0 misplaced such lets in this script while delayed hoisting was on, docs/protocol.md#plu-ts-pitfalls, 7).
 */
export function makeIsListOutput(): AnyTerm {
  return phoist(
    pfn(
      [data, data, data],
      bool,
    )((outD: AnyTerm, addressD: AnyTerm, tokensD: AnyTerm) =>
      // psndPair(int, list(data)) would compile to unListData(sndPair(..)) and fail on the bare list (plu-ts 0.9.0)
      plet(punsafeConvertType(psndPair(int, data).$(punConstrData.$(outD)), list(data))).in((fields: AnyTerm) =>
        peqData
          .$(phead(data).$(fields))
          .$(addressD)
          .and(
            // a ledger value always starts with its ADA entry; the rest must be exactly the expected tokens
            plet((ptail(pair(data, data)) as AnyTerm).$(punMapData.$(phead(data).$(ptail(data).$(fields))))).in((tokens: AnyTerm) =>
              peqData.$(pMapToData.$(tokens)).$(tokensD),
            ),
          ),
      ),
    ),
  );
}

/** The list address as Data: payment credential = the script, no stake part. */
export function listAddressData(own: AnyTerm): AnyTerm {
  return pConstrToData.$(0).$(
    pnil(data)
      .prepend(pConstrToData.$(1).$(pnil(data)))
      .prepend(pConstrToData.$(1).$(pnil(data).prepend(pBSToData.$(own)))),
  );
}

/** `{ own: { name: 1 } }` as Value Data. */
function oneTokenData(own: AnyTerm, name: AnyTerm): AnyTerm {
  return pMapToData.$(
    pnil(pair(data, data)).prepend(
      ppairData.$(pBSToData.$(own)).$(pMapToData.$(pnil(pair(data, data)).prepend(ppairData.$(pBSToData.$(name)).$(pIntToData.$(1))))),
    ),
  );
}

/** Whether `out` (a PTxOut) is a list output holding exactly the `name` token, at the list address `addressD`. */
export function isListOutputOf(isListOutput: AnyTerm, out: AnyTerm, addressD: AnyTerm, own: AnyTerm, name: AnyTerm): AnyTerm {
  return isListOutput.$(punsafeConvertType(out, data)).$(addressD).$(oneTokenData(own, name));
}
