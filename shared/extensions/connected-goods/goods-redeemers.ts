/**
 * Redeemers of the connected_goods script. Mint: MintBatch{seed} = Constr 0 [out_ref], BurnBatch = Constr 1 [].
 * Spend: Claim{token_name} = Constr 0 [B], Close = Constr 1 [].
 */
import { bytes, constr, type Data, expectBytes, expectConstr, expectInt } from "../../protocol/plutus-data";
import { ProtocolError } from "../../protocol/errors";
import { outRefData } from "../../protocol/scripts";
import type { OutRef } from "../../domain/out-ref";

export type GoodsMintRedeemer = { readonly type: "MintBatch"; readonly seed: OutRef } | { readonly type: "BurnBatch" };
export type GoodsSpendRedeemer = { readonly type: "Claim"; readonly tokenName: string } | { readonly type: "Close" };

export function encodeGoodsMintRedeemer(r: GoodsMintRedeemer): Data {
  return r.type === "MintBatch" ? constr(0, [outRefData(r.seed)]) : constr(1);
}

/** @throws ProtocolError INVALID_REDEEMER / INVALID_FIELD */
export function decodeGoodsMintRedeemer(d: Data): GoodsMintRedeemer {
  const { index, fields } = expectConstr(d, "connected_goods mint redeemer", { type: "INVALID_REDEEMER" });
  if (index === 0 && fields.length === 1) {
    const ref = expectConstr(fields[0]!, "seed", { index: 0, arity: 2, type: "INVALID_REDEEMER" }).fields;
    return { type: "MintBatch", seed: { txHash: expectBytes(ref[0], "seed.txHash", 32), index: Number(expectInt(ref[1], "seed.index")) } };
  }
  if (index === 1 && fields.length === 0) return { type: "BurnBatch" };
  throw new ProtocolError("INVALID_REDEEMER", `connected_goods mint redeemer: unknown shape ${index}/${fields.length}`, { index });
}

export function encodeGoodsSpendRedeemer(r: GoodsSpendRedeemer): Data {
  return r.type === "Claim" ? constr(0, [bytes(r.tokenName)]) : constr(1);
}

/** @throws ProtocolError INVALID_REDEEMER / INVALID_FIELD */
export function decodeGoodsSpendRedeemer(d: Data): GoodsSpendRedeemer {
  const { index, fields } = expectConstr(d, "connected_goods spend redeemer", { type: "INVALID_REDEEMER" });
  if (index === 0 && fields.length === 1) return { type: "Claim", tokenName: expectBytes(fields[0], "tokenName") };
  if (index === 1 && fields.length === 0) return { type: "Close" };
  throw new ProtocolError("INVALID_REDEEMER", `connected_goods spend redeemer: unknown shape ${index}/${fields.length}`, { index });
}
