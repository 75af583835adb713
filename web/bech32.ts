/**
 * CIP-30 wallets return addresses as hex bytes; the API takes bech32 (CIP-19: `addr` on mainnet, `addr_test`
 * elsewhere, chosen from the header's network id). Bech32 encoding per BIP-173, without the 90-character limit
 * (Cardano addresses are longer).
 */
const CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const GENERATORS = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

function polymod(values: number[]): number {
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    GENERATORS.forEach((g, i) => {
      if ((top >>> i) & 1) chk ^= g;
    });
  }
  return chk;
}

function toWords(bytes: Uint8Array): number[] {
  const words: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      words.push((acc >>> bits) & 31);
    }
  }
  if (bits > 0) words.push((acc << (5 - bits)) & 31);
  return words;
}

function bech32Encode(hrp: string, bytes: Uint8Array): string {
  const words = toWords(bytes);
  const expand = [...hrp]
    .map((c) => c.charCodeAt(0) >> 5)
    .concat(
      [0],
      [...hrp].map((c) => c.charCodeAt(0) & 31),
    );
  const mod = polymod([...expand, ...words, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = [0, 1, 2, 3, 4, 5].map((i) => (mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...words, ...checksum].map((w) => CHARSET[w]).join("")}`;
}

function hexToBytes(hex: string): Uint8Array {
  if (!/^([0-9a-fA-F]{2})*$/.test(hex)) throw new Error("not hex");
  return new Uint8Array((hex.match(/../g) ?? []).map((h) => parseInt(h, 16)));
}

/** A wallet's address (hex bytes, or already bech32) as bech32. */
export function addressToBech32(address: string): string {
  if (/^addr(_test)?1/.test(address)) return address;
  const bytes = hexToBytes(address);
  const header = bytes[0];
  if (header === undefined) throw new Error("the wallet returned an empty address");
  return bech32Encode((header & 0x0f) === 1 ? "addr" : "addr_test", bytes);
}
