/**
 * The bootstrap datum (reference-study §4.2): the template a state is forked from.
 * `Constr 0 [allowed_credentials, token_name, fee, fee_interval, fee_receivers, ttl, transaction_limit, batch_size]`.
 */
import { bytes, constr, type Data, expectBytes, expectConstr, expectInt, expectList, int, list } from "./plutus-data";

export interface BootstrapDatum {
  /** payment key hashes allowed to fork; empty = anyone */
  readonly allowedCredentials: readonly string[];
  /** asset name of the bootstrap token, hex (UTF-8 of the bootstrap name) */
  readonly tokenName: string;
  readonly fee: bigint;
  readonly feeInterval: bigint;
  readonly feeReceivers: readonly string[];
  /** POSIX ms; forks and updates must be valid entirely before it */
  readonly ttl: bigint;
  readonly transactionLimit: bigint;
  readonly batchSize: bigint;
}

export function encodeBootstrapDatum(d: BootstrapDatum): Data {
  return constr(0, [
    list(d.allowedCredentials.map(bytes)),
    bytes(d.tokenName),
    int(d.fee),
    int(d.feeInterval),
    list(d.feeReceivers.map(bytes)),
    int(d.ttl),
    int(d.transactionLimit),
    int(d.batchSize),
  ]);
}

/** @throws ProtocolError INVALID_DATUM / INVALID_FIELD */
export function decodeBootstrapDatum(d: Data): BootstrapDatum {
  const { fields: f } = expectConstr(d, "bootstrap datum", { index: 0, arity: 8 });
  return {
    allowedCredentials: expectList(f[0], "allowedCredentials").map((x, i) => expectBytes(x, `allowedCredentials[${i}]`, 28)),
    tokenName: expectBytes(f[1], "tokenName"),
    fee: expectInt(f[2], "fee"),
    feeInterval: expectInt(f[3], "feeInterval"),
    feeReceivers: expectList(f[4], "feeReceivers").map((x, i) => expectBytes(x, `feeReceivers[${i}]`, 28)),
    ttl: expectInt(f[5], "ttl"),
    transactionLimit: expectInt(f[6], "transactionLimit"),
    batchSize: expectInt(f[7], "batchSize"),
  };
}
