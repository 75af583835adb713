/**
 * The CIP-68 metadata a redeemed reference token carries, from the certificate's own metadata (the JSON object
 * anchored with the key): `name` (default "Certificate <first 8 bytes of the key>"), `image`, `description`
 * (default ""), the certificate hash, and the caller's other text fields. Bounded so the reference output stays a
 * reasonable part of a transaction.
 */
import { dataToCborHex } from "../../protocol";
import { type Cip68Metadata, encodeCip68Datum } from "./cip68";
import { refuseTokenizable } from "./extension";

/** The largest CIP-68 datum we write (CBOR bytes). */
export const MAX_CIP68_DATUM_BYTES = 4096;

/** Fields the service adds to every certificate of a list; not copied into the token's metadata. */
const SERVICE_FIELDS = new Set(["extension", "policyId", "name", "image", "description", "certificate_hash"]);

const textOf = (v: unknown): string | undefined => (typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined);

export function cip68MetadataOf(key: string, metadataJson: string): Cip68Metadata {
  let m: Record<string, unknown> = {};
  try {
    const parsed: unknown = metadataJson === "" ? {} : JSON.parse(metadataJson);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) m = parsed as Record<string, unknown>;
  } catch {
    // metadata that is no JSON object contributes no fields
  }
  const other: Record<string, string> = {};
  for (const [k, v] of Object.entries(m)) {
    const t = textOf(v);
    if (!SERVICE_FIELDS.has(k) && t !== undefined) other[k] = t;
  }
  return {
    name: textOf(m["name"]) ?? `Certificate ${key.slice(0, 16)}`,
    image: textOf(m["image"]) ?? "",
    description: textOf(m["description"]) ?? "",
    certificateHash: key,
    ...(Object.keys(other).length > 0 ? { other } : {}),
  };
}

/** @throws TokenizableError METADATA_TOO_LARGE */
export function checkMetadataFits(metadata: Cip68Metadata): void {
  const bytes = dataToCborHex(encodeCip68Datum(metadata)).length / 2;
  if (bytes > MAX_CIP68_DATUM_BYTES)
    refuseTokenizable(
      "METADATA_TOO_LARGE",
      `The certificate's metadata makes a CIP-68 datum of ${bytes} bytes; the token's datum holds at most ${MAX_CIP68_DATUM_BYTES}: shorten name, image, description or the other text fields.`,
      { datumBytes: bytes, maxDatumBytes: MAX_CIP68_DATUM_BYTES },
    );
}
