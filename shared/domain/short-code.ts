/**
 * Short-link codes (docs/decisions.md#short-link-codes): the first 16 hex digits of the certificate hash as an unsigned 64-bit
 * number, shifted right by 5 (59 bits), written as exactly 10 base62 digits (0-9A-Za-z), most significant first.
 * Decoding gives back the 14-hex-digit hash prefix (56 bits) used to find the certificate.
 */
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const CODE_LENGTH = 10;
const CODE_PATTERN = /^[0-9A-Za-z]{10}$/;

export function shortCodeOf(hashHex: string): string {
  if (!/^[0-9a-fA-F]{16,}$/.test(hashHex)) throw new RangeError("a short code needs at least 16 hex digits of hash");
  let n = BigInt(`0x${hashHex.slice(0, 16)}`) >> 5n;
  let code = "";
  for (let i = 0; i < CODE_LENGTH; i++) {
    code = ALPHABET[Number(n % 62n)] + code;
    n /= 62n;
  }
  return code;
}

export function isShortCode(code: string): boolean {
  if (!CODE_PATTERN.test(code)) return false;
  return decode(code) < 1n << 59n;
}

function decode(code: string): bigint {
  let n = 0n;
  for (const ch of code) n = n * 62n + BigInt(ALPHABET.indexOf(ch));
  return n;
}

/** The 14-hex-digit hash prefix a valid code stands for, or undefined for an invalid code. */
export function hashPrefixOf(code: string): string | undefined {
  if (!isShortCode(code)) return undefined;
  return (decode(code) >> 3n).toString(16).padStart(14, "0");
}
