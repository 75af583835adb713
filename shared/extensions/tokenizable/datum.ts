/**
 * Datums of the tokenizable-certificate list (onchain/extensions/tokenizable):
 * - HEAD  `Constr 0 [next: Option<bytes>, config]`, config
 *   `Constr 0 [service_validator_hash, allowed_inserters, deployer, cip68_script_hash: Option<bytes>]`;
 * - node  `Constr 1 [key, next: Option<bytes>, owner, asset_name, status]`, status Available = `Constr 0 []`,
 *   Redeemed = `Constr 1 []`.
 * Option: Some = `Constr 0 [x]`, None = `Constr 1 []`.
 */
import { ProtocolError } from "../../protocol/errors";
import { bytes, constr, type Data, expectBytes, expectOptionBytes, optionBytes } from "../../protocol/plutus-data";
import { type BaseListConfig, decodeListConfig, decodeListDatum, encodeListConfig, encodeListHead } from "../list-kit/list-datum";
import type { SortedListId } from "../list-kit/list-tokens";
import { HexBytes } from "../../domain/hex";

/** "TCN": the HEAD token's name and the prefix of every node token name. */
export const TOKENIZABLE_LIST: SortedListId = { prefix: HexBytes("54434e") };

/** The list's config; its deployer is the only key that may update the CIP-68 metadata of the list's tokens. */
export interface TokenizableConfig extends BaseListConfig {
  /** the CIP-68 metadata script's hash; undefined = Redeem mints one plain token */
  readonly cip68ScriptHash: string | undefined;
}

export interface TokenizableHead {
  readonly next: string | undefined;
  readonly config: TokenizableConfig;
}

export type RedeemStatus = "Available" | "Redeemed";

export interface TokenizableNode {
  /** the certificate hash, hex */
  readonly key: string;
  readonly next: string | undefined;
  /** the only key hash that may redeem */
  readonly owner: string;
  /** hex; the plain token's name, or the base name of the CIP-68 pair (at most 28 bytes then) */
  readonly assetName: string;
  readonly status: RedeemStatus;
}

export type TokenizableDatum = ({ readonly kind: "head" } & TokenizableHead) | ({ readonly kind: "node" } & TokenizableNode);

export function encodeTokenizableConfig(c: TokenizableConfig): Data {
  return encodeListConfig(c, [optionBytes(c.cip68ScriptHash)]);
}

export function encodeTokenizableHead(h: TokenizableHead): Data {
  return encodeListHead(h.next, encodeTokenizableConfig(h.config));
}

export function encodeTokenizableNode(n: TokenizableNode): Data {
  return constr(1, [bytes(n.key), optionBytes(n.next), bytes(n.owner), bytes(n.assetName), constr(n.status === "Available" ? 0 : 1)]);
}

/** @throws ProtocolError INVALID_DATUM / INVALID_FIELD */
function decodeTokenizableConfig(d: Data): TokenizableConfig {
  const { base, fields: f } = decodeListConfig(d, "tokenizable config", 4);
  const cip68ScriptHash = expectOptionBytes(f[3], "cip68ScriptHash");
  if (cip68ScriptHash !== undefined && cip68ScriptHash.length !== 56) {
    throw new ProtocolError("INVALID_FIELD", "cip68ScriptHash: expected 28 bytes", { what: "cip68ScriptHash" });
  }
  return { ...base, cip68ScriptHash };
}

/** @throws ProtocolError INVALID_DATUM / INVALID_FIELD */
export function decodeTokenizableDatum(d: Data): TokenizableDatum {
  return decodeListDatum(d, "tokenizable", decodeTokenizableConfig, 5, (f, status) => ({
    key: expectBytes(f[0], "key"),
    next: expectOptionBytes(f[1], "next"),
    owner: expectBytes(f[2], "owner", 28),
    assetName: expectBytes(f[3], "assetName"),
    status: status === 0 ? "Available" : "Redeemed",
  }));
}
