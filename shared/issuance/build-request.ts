/**
 * Parses a BuildTransactionRequest body (docs/api.md#build-request): camelCase or the
 * reference's snake_case aliases, `type` case-insensitive (default `default`), certificates normalised with
 * shared/domain/certificate-request. Every problem is an `ERROR` refusal naming the field.
 */
import { paymentCredentialOf, networkIdOfAddress } from "../csl/address";
import { identityRecordProblem } from "../credentials/identity-record";
import { normaliseCertificates, type Certificate } from "../domain/certificate-request";
import { StateId, type KeyHash } from "../domain/hex";
import { unprintableProblem } from "../domain/printable-text";
import { BUILD_TYPES, refuse, type BuildType } from "./build-outcome";

export interface BootstrapRequest {
  name: string;
  whitelistedAddresses?: string[];
  fee?: bigint;
  feeInterval?: bigint;
  feeReceiverAddresses?: string[];
  ttl?: bigint;
  transactionLimit?: bigint;
  batchSize?: bigint;
}

export interface BuildRequest {
  type: BuildType;
  address?: string;
  certificates?: Certificate[];
  bootstrapDatum?: BootstrapRequest;
  stateId?: StateId;
}

type Body = Record<string, unknown>;

function pick(body: Body, ...names: string[]): unknown {
  for (const n of names) if (body[n] !== undefined && body[n] !== null) return body[n];
  return undefined;
}

function integer(v: unknown, field: string): bigint | undefined {
  if (v === undefined) return undefined;
  if (typeof v === "number" && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === "string" && /^-?\d+$/.test(v.trim())) return BigInt(v.trim());
  return refuse("ERROR", `bootstrapDatum.${field} must be an integer`, { field });
}

function stringList(v: unknown, field: string): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string"))
    refuse("ERROR", `bootstrapDatum.${field} must be an array of addresses`, { field });
  return v as string[];
}

function parseBootstrapData(raw: unknown): BootstrapRequest | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== "object" || Array.isArray(raw)) return refuse("ERROR", "bootstrapDatum must be an object");
  const b = raw as Body;
  const name = pick(b, "name");
  if (name !== undefined && typeof name !== "string")
    refuse("ERROR", "bootstrapDatum.name must be a string", { field: "bootstrapDatum.name" });
  const unprintable = typeof name === "string" ? unprintableProblem(name) : undefined;
  if (unprintable !== undefined) refuse("ERROR", `bootstrapDatum.name ${unprintable}`, { field: "bootstrapDatum.name" });
  const out: BootstrapRequest = { name: (name as string | undefined) ?? "" };
  const set = <K extends keyof BootstrapRequest>(k: K, v: BootstrapRequest[K] | undefined) => {
    if (v !== undefined) out[k] = v;
  };
  set(
    "whitelistedAddresses",
    stringList(pick(b, "whitelistedAddresses", "whitelisted_addresses", "allowedAddresses"), "whitelistedAddresses"),
  );
  set("feeReceiverAddresses", stringList(pick(b, "feeReceiverAddresses", "fee_receiver_addresses"), "feeReceiverAddresses"));
  set("fee", integer(pick(b, "fee"), "fee"));
  set("feeInterval", integer(pick(b, "feeInterval", "fee_interval"), "feeInterval"));
  set("ttl", integer(pick(b, "ttl"), "ttl"));
  set("transactionLimit", integer(pick(b, "transactionLimit", "transaction_limit"), "transactionLimit"));
  set("batchSize", integer(pick(b, "batchSize", "batch_size"), "batchSize"));
  return out;
}

export function parseBuildType(raw: unknown): BuildType {
  if (raw === undefined || raw === null || raw === "") return "default";
  const t = typeof raw === "string" ? raw.trim().toLowerCase() : "";
  if ((BUILD_TYPES as readonly string[]).includes(t)) return t as BuildType;
  const shown = JSON.stringify(raw) ?? "";
  return refuse(
    "ERROR",
    `Unknown transaction type ${shown.length > 40 ? `${shown.slice(0, 40)}…` : shown}. Allowed types are: ${BUILD_TYPES.join(", ")}.`,
  );
}

/** @throws BuildRefusal ERROR for a malformed body */
export function parseBuildRequest(body: Body): BuildRequest {
  const type = parseBuildType(pick(body, "type"));
  const req: BuildRequest = { type };
  const address = pick(body, "address", "senderAddress", "sender_address");
  if (address !== undefined) {
    if (typeof address !== "string") refuse("ERROR", "address must be a bech32 string");
    req.address = address.trim();
  }
  const certs = pick(body, "certificates");
  if (certs !== undefined) {
    try {
      req.certificates = normaliseCertificates(certs);
    } catch (err) {
      const field = (err as { data?: { field?: unknown } }).data?.field;
      refuse("ERROR", err instanceof Error ? err.message : "invalid certificates", typeof field === "string" ? { field } : {});
    }
    req.certificates.forEach((c, i) => {
      const problem = identityRecordProblem(c.metadata);
      if (problem !== undefined) refuse("ERROR", `certificates[${i}].metadata ${problem}`, { field: `certificates[${i}].metadata` });
    });
  }
  const boot = parseBootstrapData(pick(body, "bootstrapDatum", "bootstrap_datum"));
  if (boot) req.bootstrapDatum = boot;
  if (type === "custom" && !boot?.name)
    refuse(
      "ERROR",
      "bootstrapDatum.name is required for type custom: the bootstrap datum to fork, or whose state to use (use type default otherwise).",
    );
  const rawStateId = pick(body, "stateId", "state_id");
  if (rawStateId !== undefined)
    req.stateId = StateId.parse(rawStateId) ?? refuse("ERROR", "stateId must be 64 hexadecimal digits (a state token name)");
  return req;
}

/** The payment key hash of a bech32 address on `networkId`. @throws BuildRefusal ERROR */
export function keyHashOfAddress(address: string | undefined, networkId: number, field = "address"): KeyHash {
  if (address === undefined || address === "")
    return refuse("ERROR", `${field} is required: the bech32 address of the wallet that pays and signs`);
  let cred;
  try {
    cred = paymentCredentialOf(address);
    if (networkIdOfAddress(address) !== networkId)
      refuse("ERROR", `${field} ${address.slice(0, 24)}… is not an address of this network (network id ${networkId})`);
  } catch (err) {
    if (err instanceof Error && err.name === "BuildRefusal") throw err;
    return refuse("ERROR", `${field} is not a valid bech32 Cardano address`);
  }
  if (!cred || cred.kind !== "key")
    return refuse("ERROR", `${field} must have a key payment credential (a wallet address, not a script or reward address)`);
  return cred.hash;
}
