/**
 * CIP-68 metadata as the tokenizable list mints it (onchain/extensions/tokenizable/cip68.ts is the on-chain twin): the reference
 * token `(100)name` (CIP-67 label prefix 000643b0) sits at the metadata script with the inline datum
 * `Constr 0 [metadata: Map<bytes, Data>, version: Int, extra: Data]`; the user token `(222)name` (prefix
 * 000de140) goes to the owner. Our metadata map holds `name`, `image`, `description` (UTF-8 byte strings) and
 * `certificate_hash` (the certificate's hash as raw bytes), plus any further UTF-8 text fields.
 */
import type { HexBytes } from "../../domain/hex";
import { bytes, constr, type Data, expectBytes, expectConstr, expectInt, int } from "../../protocol/plutus-data";
import { ProtocolError } from "../../protocol/errors";

/** CIP-67 label 100 (reference token), hex. */
export const CIP68_REFERENCE_PREFIX = "000643b0";
/** CIP-67 label 222 (NFT user token), hex. */
export const CIP68_USER_PREFIX = "000de140";
/** The CIP-68 metadata version we write (1: NFT, CIP-25 style fields). */
const CIP68_VERSION = 1n;

export const cip68ReferenceTokenName = (assetName: HexBytes): string => CIP68_REFERENCE_PREFIX + assetName;
export const cip68UserTokenName = (assetName: HexBytes): string => CIP68_USER_PREFIX + assetName;

export interface Cip68Metadata {
  readonly name: string;
  readonly image: string;
  readonly description: string;
  /** hex */
  readonly certificateHash: string;
  /** further text fields (keys other than the four above) */
  readonly other?: Readonly<Record<string, string>>;
}

export interface Cip68Datum {
  readonly metadata: Cip68Metadata;
  readonly version: bigint;
}

const RESERVED_KEYS = new Set(["name", "image", "description", "certificate_hash"]);
const utf8 = (s: string): Data => bytes(Buffer.from(s, "utf8").toString("hex"));
const text = (hex: string): string => Buffer.from(hex, "hex").toString("utf8");

export function encodeCip68Datum(m: Cip68Metadata, version: bigint = CIP68_VERSION): Data {
  const entries: (readonly [Data, Data])[] = [
    [utf8("name"), utf8(m.name)],
    [utf8("image"), utf8(m.image)],
    [utf8("description"), utf8(m.description)],
    [utf8("certificate_hash"), bytes(m.certificateHash)],
  ];
  for (const [k, v] of Object.entries(m.other ?? {})) {
    if (RESERVED_KEYS.has(k)) throw new ProtocolError("INVALID_FIELD", `metadata field ${k} is reserved`, { what: k });
    entries.push([utf8(k), utf8(v)]);
  }
  return constr(0, [{ map: entries }, int(version), constr(0)]);
}

/** @throws ProtocolError INVALID_DATUM / INVALID_FIELD */
export function decodeCip68Datum(d: Data): Cip68Datum {
  const { fields } = expectConstr(d, "CIP-68 datum", { index: 0, arity: 3 });
  const map = fields[0]!;
  if (!("map" in map)) throw new ProtocolError("INVALID_FIELD", "CIP-68 metadata: expected a map", { what: "metadata" });
  const found = new Map<string, string>();
  for (const [k, v] of map.map) found.set(text(expectBytes(k, "metadata key")), expectBytes(v, "metadata value"));
  const need = (k: string): string => {
    const v = found.get(k);
    if (v === undefined) throw new ProtocolError("INVALID_FIELD", `CIP-68 metadata: missing ${k}`, { what: k });
    return v;
  };
  const other = Object.fromEntries([...found].filter(([k]) => !RESERVED_KEYS.has(k)).map(([k, v]) => [k, text(v)]));
  return {
    metadata: {
      name: text(need("name")),
      image: text(need("image")),
      description: text(need("description")),
      certificateHash: need("certificate_hash"),
      ...(Object.keys(other).length > 0 ? { other } : {}),
    },
    version: expectInt(fields[1], "version"),
  };
}
