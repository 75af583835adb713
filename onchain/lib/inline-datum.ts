/** The inline datum of a transaction output; any other datum form fails the script. */
import { data, perror, pmatch } from "@harmoniclabs/plu-ts";
import type { AnyTerm } from "./term";

export function inlineDatumOf(txOut: AnyTerm): AnyTerm {
  return (pmatch(txOut.datum) as AnyTerm).onInlineDatum(({ datum }: AnyTerm) => datum)._((_: AnyTerm) => perror(data));
}
