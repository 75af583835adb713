/**
 * Plutus data layouts of the fractionized-certificate list as plu-ts structs (declaration order = constructor
 * index; shared/extensions/fractionized/{datum,redeemer,scripts}.ts are the off-chain twins). Lists of key hashes stay list(data): a
 * declared list(bs) is converted eagerly.
 */
import { bs, data, int, list, pstruct } from "@harmoniclabs/plu-ts";
import type { SortedListLayout } from "../sorted-list";

export const FRACTIONIZED_LAYOUT: SortedListLayout = {
  prefix: "46524e", // "FRN"
  head: { constr: 0, arity: 2, next: 0, config: 1 },
  node: { constr: 1, arity: 7, key: 0, next: 1 },
};

export const FractionizedRedeemer = pstruct({
  Init: { key: bs },
  Insert: { key: bs },
  Claim: { key: bs, claimer: bs, amount: int },
});

export const FractionizedConfig = pstruct({
  FractionizedConfig: { serviceValidatorHash: bs, allowedInserters: list(data), deployer: bs },
});

const TokensStatus = pstruct({ TokensAvailable: {}, TokensExhausted: {} });
export const TOKENS_AVAILABLE = 0;
export const TOKENS_EXHAUSTED = 1;

/** The node datum (constructor 1 of the list datum); read after checking the constructor index. */
export const FractionizedNode = pstruct({
  FractionizedNode: {
    key: bs,
    next: data,
    totalAmount: int,
    remainingAmount: int,
    claimants: list(data),
    assetName: bs,
    status: TokensStatus.type,
  },
});
