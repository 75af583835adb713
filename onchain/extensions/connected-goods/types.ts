/**
 * Plutus data layouts of the connected-goods extension as plu-ts structs. Constructors are numbered in
 * declaration order, so the order here IS the on-chain layout; shared/protocol holds the off-chain twins.
 * Lists of items and profile fields stay `list(data)` / `data`: declared element types make plu-ts convert a
 * whole list eagerly.
 */
import { bs, data, list, pstruct, PTxOutRef } from "@harmoniclabs/plu-ts";

/** One claimable item: its name inside the batch and the hash of the key derived from its password. */
export const BatchItem = pstruct({ BatchItem: { tokenName: bs, itemKeyHash: bs } });

/** The batch UTxO's datum; `items` is sorted by token name, strictly ascending. */
export const BatchDatum = pstruct({ BatchDatum: { batchId: bs, issuer: bs, hubPolicy: bs, items: list(data) } });

export const GoodsMintRedeemer = pstruct({ MintBatch: { seed: PTxOutRef.type }, BurnBatch: {} });

export const GoodsSpendRedeemer = pstruct({ Claim: { tokenName: bs }, Close: {} });

/** The social hub's datum: 3 identity fields, then 14 profile fields, each an Option of an AES-256-GCM ciphertext. */
export const SocialHubDatum = pstruct({
  SocialHubDatum: {
    owner: bs,
    batchId: bs,
    itemName: bs,
    picture: data,
    name: data,
    subtitle: data,
    x: data,
    telegram: data,
    discord: data,
    youtube: data,
    website: data,
    email: data,
    adaHandle: data,
    reddit: data,
    instagram: data,
    github: data,
    linkedin: data,
  },
});

/** Identity fields (owner, batch id, item name) come first; the profile fields follow. */
export const SOCIAL_HUB_IDENTITY_FIELDS = 3;
export const SOCIAL_HUB_FIELDS = 17;

export const HubSpendRedeemer = pstruct({ Update: {}, Transfer: { newOwner: bs } });
