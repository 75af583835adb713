/**
 * Plutus data layouts of the tokenizable-certificate list as plu-ts structs (declaration order = constructor
 * index; shared/extensions/tokenizable/{datum,redeemer,scripts}.ts are the off-chain twins). Lists of key hashes and Options stay data.
 */
import { bs, data, list, pstruct } from "@harmoniclabs/plu-ts";
import type { SortedListLayout } from "../sorted-list";

export const TOKENIZABLE_LAYOUT: SortedListLayout = {
  prefix: "54434e", // "TCN"
  head: { constr: 0, arity: 2, next: 0, config: 1 },
  node: { constr: 1, arity: 5, key: 0, next: 1 },
};

export const TokenizableRedeemer = pstruct({
  Init: { key: bs },
  Insert: { key: bs },
  Redeem: { key: bs },
});

/** `cip68ScriptHash` is `Option<bytes(28)>`: None = plain mint, Some(h) = CIP-68 mint with the metadata script h. */
export const TokenizableConfig = pstruct({
  TokenizableConfig: { serviceValidatorHash: bs, allowedInserters: list(data), deployer: bs, cip68ScriptHash: data },
});
/** Index of `deployer` in the config's fields (the metadata script reads it from the HEAD). */
export const CONFIG_DEPLOYER_FIELD = 2;

const RedeemStatus = pstruct({ Available: {}, Redeemed: {} });
export const AVAILABLE = 0;
export const REDEEMED = 1;

/** The node datum (constructor 1 of the list datum); read after checking the constructor index. */
export const TokenizableNode = pstruct({
  TokenizableNode: { key: bs, next: data, owner: bs, assetName: bs, status: RedeemStatus.type },
});
