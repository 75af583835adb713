/** Hex <-> bytes with validation (CSL's own from_hex throws untyped strings). */
import { CslError } from "./errors";

const HEX = /^(?:[0-9a-fA-F]{2})*$/;

export function isHex(s: string): boolean {
  return typeof s === "string" && HEX.test(s);
}

/** @throws CslError INVALID_HEX */
export function fromHex(hex: string, what = "value"): Uint8Array {
  if (!isHex(hex)) throw new CslError("INVALID_HEX", `${what} is not an even-length hex string`, { what });
  return Uint8Array.from(Buffer.from(hex, "hex"));
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}
