/**
 * The state datum (docs/protocol.md#state-datum), 11 fields:
 * `Constr 0 [id, owner, fee, fee_interval, fee_receivers, ttl, countdown, certificate_data_hash, batch_size,
 *  bootstrap_datum_name, keep_as_oracle]`, keep_as_oracle a Plutus Bool (Constr 0 = False, Constr 1 = True).
 */
import { decodeForkTerms, encodeForkTerms, type ForkTerms } from "./bootstrap-datum";
import { bool, bytes, constr, type Data, expectBool, expectBytes, expectConstr, expectInt, int } from "./plutus-data";

/** The fee terms and ttl (fields 2–5) are the bootstrap's, copied at the fork. */
export interface StateDatum extends ForkTerms {
  /** state id = the state token's asset name (32 bytes hex) */
  readonly id: string;
  /** payment key hash of the owner */
  readonly owner: string;
  /** transactions left; the next one writes countdown - 1 */
  readonly countdown: bigint;
  /** sha2-256 of the certificates of the transaction that wrote this datum */
  readonly certificateDataHash: string;
  readonly batchSize: bigint;
  /** asset name (hex) of the bootstrap token this state was forked from */
  readonly bootstrapDatumName: string;
  readonly keepAsOracle: boolean;
}

export function encodeStateDatum(d: StateDatum): Data {
  return constr(0, [
    bytes(d.id),
    bytes(d.owner),
    ...encodeForkTerms(d),
    int(d.countdown),
    bytes(d.certificateDataHash),
    int(d.batchSize),
    bytes(d.bootstrapDatumName),
    bool(d.keepAsOracle),
  ]);
}

/** @throws ProtocolError INVALID_DATUM / INVALID_FIELD */
export function decodeStateDatum(d: Data): StateDatum {
  const { fields: f } = expectConstr(d, "state datum", { index: 0, arity: 11 });
  return {
    id: expectBytes(f[0], "id"),
    owner: expectBytes(f[1], "owner", 28),
    ...decodeForkTerms(f),
    countdown: expectInt(f[6], "countdown"),
    certificateDataHash: expectBytes(f[7], "certificateDataHash"),
    batchSize: expectInt(f[8], "batchSize"),
    bootstrapDatumName: expectBytes(f[9], "bootstrapDatumName"),
    keepAsOracle: expectBool(f[10], "keepAsOracle"),
  };
}
