/**
 * Certificates carried in the state redeemer (docs/protocol.md#certificate-data-hash): the bytes the state datum's
 * `certificate_data_hash` commits to, and the per-certificate checks (non-empty hash, issuer signed).
 */
import { bs, data, pByteString, pfoldr, phoist, punBData } from "@harmoniclabs/plu-ts";
import { Certificate } from "../types";
import { isSignedBy } from "../lib/signatures";
import type { Rule } from "../rules";
import type { AnyTerm } from "../lib/term";

export interface CertificateHelpers {
  /** list(Certificate) → Σ (hash ‖ algorithm ‖ issuer ‖ Σ chunks) */
  readonly certificatesBytes: AnyTerm;
  /** every certificate has a non-empty hash and its issuer signed */
  readonly areWellFormedAndSigned: (certs: AnyTerm, signatories: AnyTerm) => AnyTerm;
}

export function makeCertificateHelpers(rule: Rule): CertificateHelpers {
  const chunksBytes = phoist(
    pfoldr(data, bs)
      .$((chunk: AnyTerm, acc: AnyTerm) => punBData.$(chunk).concat(acc))
      .$(pByteString("")),
  );
  const certificatesBytes = phoist(
    pfoldr(Certificate.type, bs)
      .$((c: AnyTerm, acc: AnyTerm) =>
        c.hash
          .concat(c.algorithm)
          .concat(c.issuer)
          .concat((chunksBytes as AnyTerm).$(c.extra))
          .concat(acc),
      )
      .$(pByteString("")),
  );
  return {
    certificatesBytes,
    areWellFormedAndSigned: (certs, signatories) =>
      certs.every((c: AnyTerm) =>
        rule("certificate hash is not empty", c.hash.length.gt(0)).and(
          rule("certificate issuer signed", isSignedBy(signatories, c.issuer)),
        ),
      ),
  };
}
