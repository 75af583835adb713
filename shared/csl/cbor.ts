/**
 * A minimal CBOR walker: finds item boundaries so that we can splice parts of a transaction
 * (e.g. the witness set's vkey entry) while keeping every other byte exactly as it was.
 * Re-encoding through CSL could change datum/redeemer bytes and so break script_data_hash,
 * or change the body bytes and so the tx id. RFC 8949 §3.
 * @internal
 */
import { CslError } from "./errors";

export interface CborHeader {
  major: number;
  /** the argument (length, count or value); -1 for indefinite length */
  arg: number;
  /** offset right after the header */
  next: number;
}

export function readHeader(b: Uint8Array, at: number): CborHeader {
  const first = b[at];
  if (first === undefined) throw malformed(at, "unexpected end");
  const major = first >> 5;
  const info = first & 0x1f;
  if (info < 24) return { major, arg: info, next: at + 1 };
  if (info === 31) return { major, arg: -1, next: at + 1 };
  const size = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0;
  if (size === 0) throw malformed(at, `reserved additional info ${info}`);
  if (at + 1 + size > b.length) throw malformed(at, "unexpected end");
  let arg = 0;
  for (let i = 0; i < size; i++) arg = arg * 256 + (b[at + 1 + i] as number);
  return { major, arg, next: at + 1 + size };
}

/** Offset right after the complete item starting at `at`. */
export function skipItem(b: Uint8Array, at: number): number {
  const h = readHeader(b, at);
  switch (h.major) {
    case 0:
    case 1:
      return h.next;
    case 2:
    case 3:
      if (h.arg >= 0) return checkEnd(b, h.next + h.arg, at);
      return skipUntilBreak(b, h.next);
    case 4:
      if (h.arg < 0) return skipUntilBreak(b, h.next);
      return skipN(b, h.next, h.arg);
    case 5:
      if (h.arg < 0) return skipUntilBreak(b, h.next);
      return skipN(b, h.next, h.arg * 2);
    case 6:
      return skipItem(b, h.next);
    default:
      return h.next; // simple values and floats: the header carries the whole item
  }
}

function skipN(b: Uint8Array, at: number, n: number): number {
  let p = at;
  for (let i = 0; i < n; i++) p = skipItem(b, p);
  return p;
}

function skipUntilBreak(b: Uint8Array, at: number): number {
  let p = at;
  while (b[p] !== 0xff) {
    if (p >= b.length) throw malformed(p, "missing break");
    p = skipItem(b, p);
  }
  return p + 1;
}

function checkEnd(b: Uint8Array, end: number, at: number): number {
  if (end > b.length) throw malformed(at, "unexpected end");
  return end;
}

function malformed(at: number, why: string): CslError {
  return new CslError("INVALID_CBOR", `malformed CBOR at byte ${at}: ${why}`, { offset: at });
}

/** Raw byte ranges of each element of a top-level array. */
export function arrayElements(b: Uint8Array, at = 0): Array<[number, number]> {
  const h = readHeader(b, at);
  if (h.major !== 4) throw malformed(at, "expected an array");
  const out: Array<[number, number]> = [];
  let p = h.next;
  if (h.arg < 0) {
    while (b[p] !== 0xff) {
      const end = skipItem(b, p);
      out.push([p, end]);
      p = end;
    }
  } else {
    for (let i = 0; i < h.arg; i++) {
      const end = skipItem(b, p);
      out.push([p, end]);
      p = end;
    }
  }
  return out;
}

export interface MapEntry {
  /** the key when it is a small unsigned int (the case for every Cardano witness-set key) */
  key: number | undefined;
  keyStart: number;
  valueStart: number;
  end: number;
}

/** Raw byte ranges of each key/value pair of a map. */
export function mapEntries(b: Uint8Array, at = 0): MapEntry[] {
  const h = readHeader(b, at);
  if (h.major !== 5) throw malformed(at, "expected a map");
  const out: MapEntry[] = [];
  let p = h.next;
  const more = (i: number): boolean => (h.arg < 0 ? b[p] !== 0xff : i < h.arg);
  for (let i = 0; more(i); i++) {
    const kh = readHeader(b, p);
    const valueStart = skipItem(b, p);
    const end = skipItem(b, valueStart);
    out.push({ key: kh.major === 0 ? kh.arg : undefined, keyStart: p, valueStart, end });
    p = end;
  }
  return out;
}

/** Encodes a major-type header with a definite argument. */
export function encodeHeader(major: number, arg: number): Uint8Array {
  const m = major << 5;
  if (arg < 24) return Uint8Array.of(m | arg);
  if (arg < 0x100) return Uint8Array.of(m | 24, arg);
  if (arg < 0x10000) return Uint8Array.of(m | 25, arg >> 8, arg & 0xff);
  return Uint8Array.of(m | 26, (arg >>> 24) & 0xff, (arg >> 16) & 0xff, (arg >> 8) & 0xff, arg & 0xff);
}

export function concatBytes(parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(parts));
}

/** CBOR byte string (major type 2) around `bytes`. */
export function cborBytes(bytes: Uint8Array): Uint8Array {
  return concatBytes([encodeHeader(2, bytes.length), bytes]);
}

/** If `b` is exactly one CBOR byte string, its content; otherwise undefined. */
export function unwrapCborBytes(b: Uint8Array): Uint8Array | undefined {
  if (b.length === 0) return undefined;
  try {
    const h = readHeader(b, 0);
    if (h.major !== 2 || h.arg < 0 || h.next + h.arg !== b.length) return undefined;
    return b.subarray(h.next);
  } catch {
    return undefined;
  }
}
