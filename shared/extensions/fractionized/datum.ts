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
  expectInt,
  expectList,
  expectOptionBytes,
  int,
  list,
  optionBytes,
} from "../../protocol/plutus-data";
import { type BaseListConfig, decodeListConfig, decodeListDatum, encodeListConfig, encodeListHead } from "../list-kit/list-datum";
import { HexBytes } from "../../domain/hex";
import type { SortedListId } from "../list-kit/list-tokens";

/** "FRN": the HEAD token's name and the prefix of every node token name. */
export const FRACTIONIZED_LIST: SortedListId = { prefix: HexBytes("46524e") };

export type FractionizedConfig = BaseListConfig;

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

export const encodeFractionizedConfig = (c: FractionizedConfig): Data => encodeListConfig(c);

export function encodeFractionizedHead(h: FractionizedHead): Data {
  return encodeListHead(h.next, encodeFractionizedConfig(h.config));
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
  return decodeListConfig(d, "fractionized config", 3).base;
}

/** @throws ProtocolError INVALID_DATUM / INVALID_FIELD */
export function decodeFractionizedDatum(d: Data): FractionizedDatum {
  return decodeListDatum(d, "fractionized", decodeFractionizedConfig, 7, (f, status) => ({
    key: expectBytes(f[0], "key"),
    next: expectOptionBytes(f[1], "next"),
    totalAmount: expectInt(f[2], "totalAmount"),
    remainingAmount: expectInt(f[3], "remainingAmount"),
    claimants: expectList(f[4], "claimants").map((x, i) => expectBytes(x, `claimants[${i}]`, 28)),
    assetName: expectBytes(f[5], "assetName"),
    status: status === 0 ? "TokensAvailable" : "TokensExhausted",
  }));
}
