/**
 * CIP-68 metadata as the tokenizable list mints it: a reference token `(100)name` (label prefix 000643b0) held
 * by a metadata script whose inline datum is `Constr 0 [metadata: Map, version: Int ≥ 1, extra: Data]`, and a
 * user token `(222)name` (label prefix 000de140) in the owner's wallet. Our metadata map must hold the keys
 * `name`, `image` and `description` (UTF-8 byte strings) and `certificate_hash` with the certificate's hash as
 * raw bytes. Term builders only (no hoisted helpers), so each validator gets its own instances.
 */
import { pBool, pBSToData, pByteString, peqData, plet, pmatch, punIData, punMapData, punsafeConvertType } from "@harmoniclabs/plu-ts";
import { PAnyConstr } from "../../lib/constr-data";
import type { AnyTerm } from "../../lib/term";

/** CIP-67 label 100 (reference token), hex. */
export const CIP68_REFERENCE_LABEL = "000643b0";
/** CIP-67 label 222 (NFT user token), hex. */
export const CIP68_USER_LABEL = "000de140";

const utf8 = (s: string): string => Buffer.from(s, "utf8").toString("hex");
const CIP68_REQUIRED_KEYS = ["name", "image", "description"] as const;
const CIP68_CERTIFICATE_KEY = "certificate_hash";

const keyData = (name: string): AnyTerm => pBSToData.$(pByteString(utf8(name)));

/** The metadata map of a CIP-68 datum; fails the script when the first field is not a map. */
export function cip68MapOf(datum: AnyTerm): AnyTerm {
  return punMapData.$(punsafeConvertType(datum, PAnyConstr.type).raw.fields.head);
}

/** The `certificate_hash` value (Data) of a metadata map; fails the script when it is missing. */
export function cip68CertificateOf(map: AnyTerm): AnyTerm {
  return map.filter((p: AnyTerm) => peqData.$(p.fst).$(keyData(CIP68_CERTIFICATE_KEY))).head.snd;
}

/**
 * Whether `datum` (Data) is a CIP-68 metadata datum of ours: `Constr 0` with exactly three fields, a version of
 * at least 1, and a map holding name, image, description and `certificate_hash` = `certificate` (Data).
 * The constructor and field count are checked before any field is read, so a unit datum is refused, not crashed on.
 */
function isCip68Metadata(datum: AnyTerm, certificate: AnyTerm): AnyTerm {
  return plet(punsafeConvertType(datum, PAnyConstr.type)).in((d: AnyTerm) =>
    plet(d.raw.fields).in((fs: AnyTerm) =>
      d.raw.index
        .eq(0)
        .and(fs.length.eq(3))
        .and(punIData.$(fs.tail.head).gtEq(1))
        .and(
          plet(punMapData.$(fs.head)).in((m: AnyTerm) =>
            CIP68_REQUIRED_KEYS.map((k) => m.some((p: AnyTerm) => peqData.$(p.fst).$(keyData(k))))
              .reduce((a: AnyTerm, b: AnyTerm) => a.and(b))
              .and(m.some((p: AnyTerm) => peqData.$(p.fst).$(keyData(CIP68_CERTIFICATE_KEY)).and(peqData.$(p.snd).$(certificate)))),
          ),
        ),
    ),
  );
}

/** Whether an output (PTxOut) carries an inline CIP-68 metadata datum of ours (any other datum form: false). */
export function hasCip68Metadata(out: AnyTerm, certificate: AnyTerm): AnyTerm {
  return (pmatch(out.datum) as AnyTerm)
    .onInlineDatum(({ datum }: AnyTerm) => isCip68Metadata(datum, certificate))
    ._((_: AnyTerm) => pBool(false));
}
