/** Hex <-> bytes with validation (CSL's own from_hex throws untyped strings). */
import { HEX_PATTERNS } from "../domain/hex";
import { CslError } from "./errors";

export function isHex(s: string): boolean {
  return typeof s === "string" && HEX_PATTERNS.bytes.test(s);
}

/** @throws CslError INVALID_HEX */
export function fromHex(hex: string, what = "value"): Uint8Array {
  if (!isHex(hex)) throw new CslError("INVALID_HEX", `${what} is not an even-length hex string`, { what });
  return Uint8Array.from(Buffer.from(hex, "hex"));
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}
