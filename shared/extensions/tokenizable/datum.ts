/**
 * Datums of the tokenizable-certificate list (onchain/extensions/tokenizable):
 * - HEAD  `Constr 0 [next: Option<bytes>, config]`, config
 *   `Constr 0 [service_validator_hash, allowed_inserters, deployer, cip68_script_hash: Option<bytes>]`;
 * - node  `Constr 1 [key, next: Option<bytes>, owner, asset_name, status]`, status Available = `Constr 0 []`,
 *   Redeemed = `Constr 1 []`.
 * Option: Some = `Constr 0 [x]`, None = `Constr 1 []`.
 */
import {
  bytes,
  constr,
  type Data,
  expectBytes,
  expectConstr,
  expectList,
  expectOptionBytes,
  list,
  optionBytes,
} from "../../protocol/plutus-data";
import type { SortedListId } from "../list-kit/list-tokens";
import { ProtocolError } from "../../protocol/errors";

/** "TCN": the HEAD token's name and the prefix of every node token name. */
export const TOKENIZABLE_LIST: SortedListId = { prefix: "54434e" };

export interface TokenizableConfig {
  /** the core state script whose UPDATE_STATE / MINT_STATE withdrawal must anchor each key (56 hex) */
  readonly serviceValidatorHash: string;
  /** key hashes that may insert; empty = anyone */
  readonly allowedInserters: readonly string[];
  /** key hash that signed the Init; the only key that may update the CIP-68 metadata of the list's tokens */
  readonly deployer: string;
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
  return constr(0, [bytes(c.serviceValidatorHash), list(c.allowedInserters.map(bytes)), bytes(c.deployer), optionBytes(c.cip68ScriptHash)]);
}

export function encodeTokenizableHead(h: TokenizableHead): Data {
  return constr(0, [optionBytes(h.next), encodeTokenizableConfig(h.config)]);
}

export function encodeTokenizableNode(n: TokenizableNode): Data {
  return constr(1, [bytes(n.key), optionBytes(n.next), bytes(n.owner), bytes(n.assetName), constr(n.status === "Available" ? 0 : 1)]);
}

/** @throws ProtocolError INVALID_DATUM / INVALID_FIELD */
function decodeTokenizableConfig(d: Data): TokenizableConfig {
  const { fields: f } = expectConstr(d, "tokenizable config", { index: 0, arity: 4 });
  const cip68ScriptHash = expectOptionBytes(f[3], "cip68ScriptHash");
  if (cip68ScriptHash !== undefined && cip68ScriptHash.length !== 56) {
    throw new ProtocolError("INVALID_FIELD", "cip68ScriptHash: expected 28 bytes", { what: "cip68ScriptHash" });
  }
  return {
    serviceValidatorHash: expectBytes(f[0], "serviceValidatorHash", 28),
    allowedInserters: expectList(f[1], "allowedInserters").map((x, i) => expectBytes(x, `allowedInserters[${i}]`, 28)),
    deployer: expectBytes(f[2], "deployer", 28),
    cip68ScriptHash,
  };
}

/** @throws ProtocolError INVALID_DATUM / INVALID_FIELD */
export function decodeTokenizableDatum(d: Data): TokenizableDatum {
  const { index, fields: f } = expectConstr(d, "tokenizable datum");
  if (index === 0) {
    expectConstr(d, "tokenizable HEAD", { arity: 2 });
    return { kind: "head", next: expectOptionBytes(f[0], "next"), config: decodeTokenizableConfig(f[1]!) };
  }
  if (index !== 1) throw new ProtocolError("INVALID_DATUM", `tokenizable datum: unknown constructor ${index}`, { index });
  expectConstr(d, "tokenizable node", { arity: 5 });
  const { index: status } = expectConstr(f[4]!, "status", { arity: 0 });
  if (status > 1) throw new ProtocolError("INVALID_FIELD", `status: unknown constructor ${status}`, { index: status });
  return {
    kind: "node",
    key: expectBytes(f[0], "key"),
    next: expectOptionBytes(f[1], "next"),
    owner: expectBytes(f[2], "owner", 28),
    assetName: expectBytes(f[3], "assetName"),
    status: status === 0 ? "Available" : "Redeemed",
  };
}
