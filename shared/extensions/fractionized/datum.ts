/**
 * Datums of the fractionized-certificate list (onchain/extensions/fractionized):
 * - HEAD  `Constr 0 [next: Option<bytes>, config]`, config `Constr 0 [service_validator_hash, allowed_inserters, deployer]`;
 * - node  `Constr 1 [key, next: Option<bytes>, total_amount, remaining_amount, claimants, asset_name, status]`,
 *   status TokensAvailable = `Constr 0 []`, TokensExhausted = `Constr 1 []`.
 * Option: Some = `Constr 0 [x]`, None = `Constr 1 []`.
 */
import {
  bytes,
  constr,
  type Data,
  expectBytes,
  expectConstr,
  expectInt,
  expectList,
  expectOptionBytes,
  int,
  list,
  optionBytes,
} from "../../protocol/plutus-data";
import type { SortedListId } from "../list-kit/list-tokens";
import { ProtocolError } from "../../protocol/errors";

/** "FRN": the HEAD token's name and the prefix of every node token name. */
export const FRACTIONIZED_LIST: SortedListId = { prefix: "46524e" };

export interface FractionizedConfig {
  /** the core state script whose UPDATE_STATE / MINT_STATE withdrawal must anchor each key (56 hex) */
  readonly serviceValidatorHash: string;
  /** key hashes that may insert; empty = anyone */
  readonly allowedInserters: readonly string[];
  /** key hash that signed the Init */
  readonly deployer: string;
}

export interface FractionizedHead {
  readonly next: string | undefined;
  readonly config: FractionizedConfig;
}

export type TokensStatus = "TokensAvailable" | "TokensExhausted";

export interface FractionizedNode {
  /** the certificate hash, hex */
  readonly key: string;
  readonly next: string | undefined;
  readonly totalAmount: bigint;
  readonly remainingAmount: bigint;
  /** key hashes that may claim; empty = anyone */
  readonly claimants: readonly string[];
  /** the fungible token claims mint under the list's policy, hex */
  readonly assetName: string;
  readonly status: TokensStatus;
}

export type FractionizedDatum = ({ readonly kind: "head" } & FractionizedHead) | ({ readonly kind: "node" } & FractionizedNode);

export function encodeFractionizedConfig(c: FractionizedConfig): Data {
  return constr(0, [bytes(c.serviceValidatorHash), list(c.allowedInserters.map(bytes)), bytes(c.deployer)]);
}

export function encodeFractionizedHead(h: FractionizedHead): Data {
  return constr(0, [optionBytes(h.next), encodeFractionizedConfig(h.config)]);
}

export function encodeFractionizedNode(n: FractionizedNode): Data {
  return constr(1, [
    bytes(n.key),
    optionBytes(n.next),
    int(n.totalAmount),
    int(n.remainingAmount),
    list(n.claimants.map(bytes)),
    bytes(n.assetName),
    constr(n.status === "TokensAvailable" ? 0 : 1),
  ]);
}

/** @throws ProtocolError INVALID_DATUM / INVALID_FIELD */
function decodeFractionizedConfig(d: Data): FractionizedConfig {
  const { fields: f } = expectConstr(d, "fractionized config", { index: 0, arity: 3 });
  return {
    serviceValidatorHash: expectBytes(f[0], "serviceValidatorHash", 28),
    allowedInserters: expectList(f[1], "allowedInserters").map((x, i) => expectBytes(x, `allowedInserters[${i}]`, 28)),
    deployer: expectBytes(f[2], "deployer", 28),
  };
}

/** @throws ProtocolError INVALID_DATUM / INVALID_FIELD */
export function decodeFractionizedDatum(d: Data): FractionizedDatum {
  const { index, fields: f } = expectConstr(d, "fractionized datum");
  if (index === 0) {
    expectConstr(d, "fractionized HEAD", { arity: 2 });
    return { kind: "head", next: expectOptionBytes(f[0], "next"), config: decodeFractionizedConfig(f[1]!) };
  }
  if (index !== 1) throw new ProtocolError("INVALID_DATUM", `fractionized datum: unknown constructor ${index}`, { index });
  expectConstr(d, "fractionized node", { arity: 7 });
  const { index: status } = expectConstr(f[6]!, "status", { arity: 0 });
  if (status > 1) throw new ProtocolError("INVALID_FIELD", `status: unknown constructor ${status}`, { index: status });
  return {
    kind: "node",
    key: expectBytes(f[0], "key"),
    next: expectOptionBytes(f[1], "next"),
    totalAmount: expectInt(f[2], "totalAmount"),
    remainingAmount: expectInt(f[3], "remainingAmount"),
    claimants: expectList(f[4], "claimants").map((x, i) => expectBytes(x, `claimants[${i}]`, 28)),
    assetName: expectBytes(f[5], "assetName"),
    status: status === 0 ? "TokensAvailable" : "TokensExhausted",
  };
}
