/**
 * The state datum a MINT_STATE or UPDATE_STATE transaction must write, rebuilt as Data: the caller compares the
 * output's datum with it in one `equalsData`, which also pins the constructor and the field count
 * (docs/protocol.md#state-datum). The fork takes the terms from the bootstrap, the update from the spent state;
 * both write `countdown` and the hash of the redeemer's certificates (docs/protocol.md#certificate-data-hash).
 * A plain term builder, not a hoisted function: it is used by the state validator only
 * (docs/protocol.md#plu-ts-pitfalls, 3).
 */
import { pBSToData, pConstrToData, pIntToData, psha2_256 } from "@harmoniclabs/plu-ts";
import type { CertificateHelpers } from "./certificates";
import type { AnyTerm } from "../lib/term";

export interface NextStateFields {
  /** fields 0–5 (`id`, `owner`, `fee`, `fee_interval`, `fee_receivers`, `ttl`), each as data */
  readonly id: AnyTerm;
  readonly owner: AnyTerm;
  readonly fee: AnyTerm;
  readonly feeInterval: AnyTerm;
  readonly feeReceivers: AnyTerm;
  readonly ttl: AnyTerm;
  /** field 6, an integer */
  readonly countdown: AnyTerm;
  /** fields 8–10 (`batch_size`, `bootstrap_datum_name`, `keep_as_oracle`) as list(data) */
  readonly rest: AnyTerm;
}

/** `Constr 0 [id, owner, fee, fee_interval, fee_receivers, ttl, countdown, sha2_256(certificates), …rest]` */
export function nextStateDatum(certificates: CertificateHelpers, certs: AnyTerm, f: NextStateFields): AnyTerm {
  return pConstrToData.$(0).$(
    f.rest
      .prepend(pBSToData.$(psha2_256.$(certificates.certificatesBytes.$(certs))))
      .prepend(pIntToData.$(f.countdown))
      .prepend(f.ttl)
      .prepend(f.feeReceivers)
      .prepend(f.feeInterval)
      .prepend(f.fee)
      .prepend(f.owner)
      .prepend(f.id),
  );
}
