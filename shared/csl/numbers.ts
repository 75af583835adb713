/** Number conversions at the CSL boundary: Ogmios JSON gives number or bigint; CSL wants decimal strings. */
import { CSL } from "./lib";
import { CslError } from "./errors";

export type IntLike = number | bigint | string;

export function toBigInt(x: IntLike, what = "value"): bigint {
  try {
    if (typeof x === "number" && !Number.isSafeInteger(x)) throw new Error("unsafe");
    return BigInt(x);
  } catch {
    throw new CslError("TX_BUILD_FAILED", `${what} is not an integer`, { what, value: String(x) });
  }
}

export function bn(x: IntLike, what = "value"): CSL.BigNum {
  const v = toBigInt(x, what);
  if (v < 0n) throw new CslError("TX_BUILD_FAILED", `${what} must not be negative`, { what, value: v.toString() });
  return CSL.BigNum.from_str(v.toString());
}

export function fromBn(b: CSL.BigNum): bigint {
  return BigInt(b.to_str());
}

export function fromInt(i: CSL.Int): bigint {
  return BigInt(i.to_str());
}
