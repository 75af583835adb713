/**
 * The bootstrap datum (docs/protocol.md#bootstrap-datum): the template a state is forked from.
 * `Constr 0 [allowed_credentials, token_name, fee, fee_interval, fee_receivers, ttl, transaction_limit, batch_size]`.
 */
import { bytes, constr, type Data, expectBytes, expectConstr, expectInt, expectList, int, list } from "./plutus-data";

/**
 * Fields 2–5 of the bootstrap datum, which every state forked from it copies into its own fields 2–5: the fee, its
 * period in transactions, the key hashes sharing it, and the deadline.
 */
export interface ForkTerms {
  readonly fee: bigint;
  readonly feeInterval: bigint;
  readonly feeReceivers: readonly string[];
  /** POSIX ms; forks and updates must be valid entirely before it */
  readonly ttl: bigint;
}

export interface BootstrapDatum extends ForkTerms {
  /** payment key hashes allowed to fork; empty = anyone */
  readonly allowedCredentials: readonly string[];
  /** asset name of the bootstrap token, hex (UTF-8 of the bootstrap name) */
  readonly tokenName: string;
  readonly transactionLimit: bigint;
  readonly batchSize: bigint;
}

/** Fields 2–5 of a bootstrap or state datum. */
export function encodeForkTerms(d: ForkTerms): Data[] {
  return [int(d.fee), int(d.feeInterval), list(d.feeReceivers.map(bytes)), int(d.ttl)];
}

/** Reads fields 2–5 of a bootstrap or state datum. @throws ProtocolError INVALID_FIELD */
export function decodeForkTerms(fields: readonly Data[]): ForkTerms {
  return {
    fee: expectInt(fields[2], "fee"),
    feeInterval: expectInt(fields[3], "feeInterval"),
    feeReceivers: expectKeyHashes(fields[4], "feeReceivers"),
    ttl: expectInt(fields[5], "ttl"),
  };
}

/** A list of 28-byte key hashes. @throws ProtocolError INVALID_FIELD naming the list or the element */
function expectKeyHashes(d: Data | undefined, what: string): string[] {
  return expectList(d, what).map((x, i) => expectBytes(x, `${what}[${i}]`, 28));
}

export function encodeBootstrapDatum(d: BootstrapDatum): Data {
  return constr(0, [
    list(d.allowedCredentials.map(bytes)),
    bytes(d.tokenName),
    ...encodeForkTerms(d),
    int(d.transactionLimit),
    int(d.batchSize),
  ]);
}

/** @throws ProtocolError INVALID_DATUM / INVALID_FIELD */
export function decodeBootstrapDatum(d: Data): BootstrapDatum {
  const { fields: f } = expectConstr(d, "bootstrap datum", { index: 0, arity: 8 });
  return {
    allowedCredentials: expectKeyHashes(f[0], "allowedCredentials"),
    tokenName: expectBytes(f[1], "tokenName"),
    ...decodeForkTerms(f),
    transactionLimit: expectInt(f[6], "transactionLimit"),
    batchSize: expectInt(f[7], "batchSize"),
  };
}
