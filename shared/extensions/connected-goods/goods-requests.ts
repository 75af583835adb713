/**
 * Reading connected-goods request fields (docs/connected-goods.md): wallet addresses, claiming passwords, batch ids,
 * item names and the batch token's display name. Every problem is a ConnectedGoodsError naming the field; messages
 * never carry a password.
 */
import { paymentCredentialOf } from "../../csl/address";
import { Hash32 } from "../../domain/hex";
import { unprintableProblem } from "../../domain/printable-text";
import { ConnectedGoodsError } from "./errors";
import type { Body } from "./goods-env";
import { MAX_ITEM_NAME_BYTES } from "./goods-token-names";
import { parseProfile, type PlainProfile } from "./hub-profile";

/** Longest `token_name`: a transaction-metadata text holds at most 64 bytes (ledger rule). */
const MAX_TOKEN_NAME_BYTES = 64;
const MIN_PASSWORD_CHARS = 8;
export const MAX_PASSWORD_CHARS = 256;

export function keyAddress(value: unknown, field: string): { address: string; keyHash: string } {
  if (typeof value !== "string" || value.trim() === "")
    throw new ConnectedGoodsError("INVALID_ADDRESS", `${field} must be a bech32 address`, { field });
  const address = value.trim();
  let cred;
  try {
    cred = paymentCredentialOf(address);
  } catch {
    cred = undefined;
  }
  if (!cred) throw new ConnectedGoodsError("INVALID_ADDRESS", `${field} is not a valid Cardano address`, { field });
  if (cred.kind !== "key")
    throw new ConnectedGoodsError("INVALID_ADDRESS", `${field} must be a key address (a wallet), not a script address`, { field });
  return { address, keyHash: cred.hash };
}

export function password(value: unknown, field = "password"): string {
  if (typeof value !== "string") throw new ConnectedGoodsError("INVALID_PASSWORD", `${field} must be a string`, { field });
  const chars = [...value.normalize("NFKC")].length;
  if (chars < MIN_PASSWORD_CHARS || chars > MAX_PASSWORD_CHARS) {
    throw new ConnectedGoodsError("INVALID_PASSWORD", `${field} must be ${MIN_PASSWORD_CHARS} to ${MAX_PASSWORD_CHARS} characters long`, {
      field,
    });
  }
  return value;
}

export function batchIdParam(value: unknown, field = "batch_id"): Hash32 {
  const batchId = typeof value === "string" ? Hash32.parse(value.trim()) : undefined;
  if (batchId === undefined) throw new ConnectedGoodsError("INVALID_CONTEXT", `${field} must be a batch id: 64 hex characters`, { field });
  return batchId;
}

/**
 * An item's name as the request gives it (printable text, 1..32 UTF-8 bytes) → token name hex. Refused as
 * INVALID_ITEMS, the code of a mint's items, on every route that names an item.
 */
export function assetName(value: unknown, field: string): string {
  if (typeof value !== "string" || value === "")
    throw new ConnectedGoodsError("INVALID_ITEMS", `${field} must be a non-empty string`, { field });
  const unprintable = unprintableProblem(value);
  if (unprintable !== undefined) throw new ConnectedGoodsError("INVALID_ITEMS", `${field} ${unprintable}`, { field });
  const bytes = Buffer.from(value, "utf8");
  if (bytes.length > MAX_ITEM_NAME_BYTES) {
    throw new ConnectedGoodsError("INVALID_ITEMS", `${field} is ${bytes.length} bytes long in UTF-8; the limit is ${MAX_ITEM_NAME_BYTES}`, {
      field,
    });
  }
  return bytes.toString("hex");
}

/**
 * `token_name`: the batch token's display name. The token's on-chain name must be the batch id (the validator
 * derives it from the seed input, which is what makes batch ids unique), so the name travels as CIP-25 metadata
 * (label 721) of the mint, where wallets and explorers read token names. Absent, null or "" → no metadata.
 */
export function tokenNameParam(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") {
    throw new ConnectedGoodsError("INVALID_TOKEN_NAME", "token_name must be a string: the batch token's display name", {
      field: "token_name",
    });
  }
  const bytes = Buffer.byteLength(value, "utf8");
  if (bytes > MAX_TOKEN_NAME_BYTES) {
    throw new ConnectedGoodsError(
      "INVALID_TOKEN_NAME",
      `token_name is ${bytes} bytes long in UTF-8; the limit is ${MAX_TOKEN_NAME_BYTES} (one transaction-metadata text)`,
      { field: "token_name", max: MAX_TOKEN_NAME_BYTES },
    );
  }
  const unprintable = unprintableProblem(value);
  if (unprintable !== undefined) throw new ConnectedGoodsError("INVALID_TOKEN_NAME", `token_name ${unprintable}`, { field: "token_name" });
  return value;
}

export interface ItemRequest {
  pw: string;
  batchId: string;
  user: { address: string; keyHash: string };
  profile: PlainProfile;
  /** token name hex, when the request names the item */
  tokenName?: string;
}

export function itemRequest(body: Body): ItemRequest {
  const pw = password(body["password"]);
  const batchId = batchIdParam(body["batch_id"] ?? body["batchId"]);
  const user = keyAddress(body["user_address"] ?? body["userAddress"], "user_address");
  const profile = parseProfile(body["social_hub"] ?? body["socialHub"], { requireOne: true });
  const name = body["asset_name"] ?? body["assetName"];
  return { pw, batchId, user, profile, ...(name === undefined ? {} : { tokenName: assetName(name, "asset_name") }) };
}
