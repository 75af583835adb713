/**
 * `GET /extension/connected-goods/{batchIds}/{itemId}`: the social hub of a claimed item, decrypted with the hub key
 * its item id (the SHA-256 of its password) derives in each batch named.
 */
import { enterpriseAddressOfKeyHash } from "../../csl/address";
import { ConnectedGoodsError } from "./errors";
import { unmetered, type GoodsEnv } from "./goods-env";
import { hubOpenedIn } from "./goods-outputs";
import { batchIdParam, MAX_PASSWORD_CHARS } from "./goods-requests";
import { itemIdFromInput } from "./hub-profile";
import type { KdfAllowance } from "./kdf-budget";
import { PROFILE_FIELDS, PROFILE_JSON_NAMES } from "./profile-fields";

/** A read lists at most this many batch ids: each batch with claimed items may cost one hub-key derivation. */
export const MAX_READ_BATCHES = 8;

/** The API's SocialHub: every profile field decrypted ("" when unset). */
export interface SocialHubResponse {
  owner: string;
  batch_id: string;
  item_name: string;
  [field: string]: string;
}

/**
 * GET /extension/connected-goods/{batchIds}/{itemId}: the first batch whose hub opens under the item id. At most
 * MAX_READ_BATCHES ids, so a read derives at most that many hub keys (each paid by `caller`; a cached key is free).
 */
export async function readSocialHub(
  env: GoodsEnv,
  batchIdsParam: string,
  itemIdParam: string,
  caller: KdfAllowance = unmetered(),
): Promise<SocialHubResponse> {
  const batchIds = [
    ...new Set(
      batchIdsParam
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== ""),
    ),
  ];
  if (batchIds.length === 0 || batchIds.length > MAX_READ_BATCHES) {
    throw new ConnectedGoodsError("INVALID_CONTEXT", `batchIds must be 1 to ${MAX_READ_BATCHES} comma-separated batch ids`, {
      max: MAX_READ_BATCHES,
    });
  }
  const ids = batchIds.map((b) => batchIdParam(b, "batchIds"));
  if (itemIdParam === "" || itemIdParam.length > MAX_PASSWORD_CHARS * 4) {
    throw new ConnectedGoodsError("INVALID_PASSWORD", "itemId must be the SHA-256 hex of the claiming password, or the password");
  }
  const itemId = itemIdFromInput(itemIdParam);
  const unknown: string[] = [];
  for (const batchId of ids) {
    // a batch with no claimed item has no hub to open: no key is derived for it
    const hubs = await env.source.hubs(batchId);
    if (hubs.length === 0) {
      if (!(await env.source.batch(batchId))) unknown.push(batchId);
      continue;
    }
    const key = await env.hubKeys.get(itemId, batchId, caller);
    const found = hubOpenedIn(hubs, key);
    if (!found) continue;
    const out: SocialHubResponse = {
      owner: enterpriseAddressOfKeyHash(found.hub.owner, env.networkId),
      batch_id: batchId,
      item_name: Buffer.from(found.hub.itemName, "hex").toString("utf8"),
    };
    for (const f of PROFILE_FIELDS) out[PROFILE_JSON_NAMES[f]] = found.profile[f] ?? "";
    return out;
  }
  if (unknown.length === ids.length) {
    throw new ConnectedGoodsError(
      "UNKNOWN_BATCH",
      ids.length === 1
        ? `no batch ${ids[0]} is known (not minted, or its mint is not confirmed yet); check the batch id`
        : "none of these batch ids names a known batch (not minted, or their mints are not confirmed yet); check the batch ids",
      { batch_ids: ids },
    );
  }
  throw new ConnectedGoodsError(
    "WRONG_PASSWORD",
    "no claimed item of these batches opens with this item id (wrong id, or not claimed yet)",
    { batch_ids: ids, ...(unknown.length > 0 ? { unknown_batch_ids: unknown } : {}) },
  );
}
