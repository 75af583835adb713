/**
 * Byte encodings of output indices used in asset names: decimal ASCII (proxy pointer token) and
 * uint16 little-endian (state id). Factories, so every validator build gets its own hoisted instances
 * (shared hoisted terms make the output depend on compile order, docs/protocol.md#plu-ts-pitfalls, 3).
 */
import { bs, int, lam, pByteString, pfn, phoist, pif, precursive } from "@harmoniclabs/plu-ts";
import type { AnyTerm } from "./term";

/** n ≥ 0 → ASCII decimal digits, e.g. 12 → "12" */
export function makeDecimalAscii(): AnyTerm {
  return phoist(
    precursive(
      pfn(
        [lam(int, bs), int],
        bs,
      )((self: AnyTerm, n: AnyTerm) =>
        pif(bs)
          .$(n.lt(10))
          .then(pByteString("").prepend(n.add(48)))
          .else(self.$(n.div(10)).concat(pByteString("").prepend(n.mod(10).add(48)))),
      ),
    ),
  );
}

/** n → [n mod 256, (n div 256) mod 256] */
export function makeUint16Le(): AnyTerm {
  return phoist(pfn([int], bs)((n: AnyTerm) => pByteString("").prepend(n.div(256).mod(256)).prepend(n.mod(256))));
}
