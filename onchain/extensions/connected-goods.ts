/**
 * Connected-goods validator: one V3 script that is both the batch policy (mint) and the batch address (spend).
 * It takes no parameter, so the social-hub script can take its hash as one. Mint: MintBatch creates a batch,
 * BurnBatch only burns. Spend: Claim takes one item out of a batch, signed by the item's key; Close retires an
 * empty batch. No key is built in: a batch's issuer is whoever minted it and signed.
 *
 * Every handler is a closed, hoisted function of the transaction and the values it reads, so no handler can see
 * another's bindings. (Compiled with plu-ts' default delayed hoisting, these validators came out with variables
 * bound to the wrong terms, first between the mint and spend branches, then inside the claim; compile.ts hoists
 * them to the top level instead. The phase-2 tests of both builds are what caught it.)
 */
import { passert, perror, pfn, plet, pmatch, PScriptContext, punsafeConvertType, unit } from "@harmoniclabs/plu-ts";
import { GoodsMintRedeemer, GoodsSpendRedeemer } from "./connected-goods/types";
import { makeItemHelpers } from "./connected-goods/items";
import { makeBatchMint } from "./connected-goods/mint-batch";
import { makeBatchBurn } from "./connected-goods/burn-batch";
import { makeItemClaim } from "./connected-goods/claim-item";
import { makeBatchClose } from "./connected-goods/close-batch";
import type { GoodsBuild } from "./connected-goods/env";
import { makeRule, type BuildOptions } from "../rules";
import { makeUint16Le } from "../lib/byte-encodings";
import type { AnyTerm } from "../lib/term";

export function makeConnectedGoodsValidator(opts: BuildOptions): AnyTerm {
  const build: GoodsBuild = { rule: makeRule(opts), items: makeItemHelpers(), uint16Le: makeUint16Le() };
  const mintBatch = makeBatchMint(build);
  const burnBatch = makeBatchBurn(build);
  const claimItem = makeItemClaim(build);
  const closeBatch = makeBatchClose(build);

  return pfn(
    [PScriptContext.type],
    unit,
  )(({ tx, redeemer, purpose }: AnyTerm) =>
    (pmatch(purpose) as AnyTerm)
      .onMinting(({ currencySym }: AnyTerm) =>
        passert.$(
          (pmatch(punsafeConvertType(redeemer, GoodsMintRedeemer.type)) as AnyTerm)
            .onMintBatch(({ seed }: AnyTerm) => mintBatch.$(tx).$(currencySym).$(seed))
            .onBurnBatch((_: AnyTerm) => burnBatch.$(tx).$(currencySym)),
        ),
      )
      .onSpending(({ utxoRef }: AnyTerm) =>
        plet(tx.inputs.filter((i: AnyTerm) => i.utxoRef.eq(utxoRef)).head.resolved).in((spent: AnyTerm) =>
          plet(spent.address.credential.hash).in((own: AnyTerm) =>
            passert.$(
              (pmatch(punsafeConvertType(redeemer, GoodsSpendRedeemer.type)) as AnyTerm)
                .onClaim(({ tokenName }: AnyTerm) => claimItem.$(tx).$(spent).$(own).$(tokenName))
                .onClose((_: AnyTerm) => closeBatch.$(tx).$(spent).$(own)),
            ),
          ),
        ),
      )
      ._((_: AnyTerm) => perror(unit)),
  );
}
