/**
 * The indexer's decoding of connected-goods outputs: only an output at the script's address (any stake part) holding
 * exactly one token that its datum names, under this deployment's hub policy, is a batch or a hub; burns close
 * batches; a transaction whose scripts failed decodes to nothing.
 */
import type { Transaction } from "@cardano-ogmios/schema";
import { expect } from "chai";
import { decodeGoodsTransaction, goodsFactDecoder, type GoodsView } from "../../../shared/extensions/connected-goods";
import { scriptAddress } from "../../../shared/csl/plutus-script";
import { dataToCborHex, scriptAddressOf } from "../../../shared/protocol";
import { encodeBatchDatum } from "../../../shared/extensions/connected-goods/batch-datum";
import { encodeSocialHubDatum } from "../../../shared/extensions/connected-goods/social-hub-datum";
import { hubTokenNameOf } from "../../../shared/extensions/connected-goods/goods-token-names";

const view: GoodsView = { goodsPolicy: "a1".repeat(28), hubPolicy: "b2".repeat(28) };
const batchId = "c3".repeat(32);
const issuer = "d4".repeat(28);
const item = Buffer.from("shoe-0001").toString("hex");
const hubName = hubTokenNameOf(batchId, item);
const batchDatum = (over: { batchId?: string; hubPolicy?: string } = {}) =>
  dataToCborHex(
    encodeBatchDatum({
      batchId: over.batchId ?? batchId,
      issuer,
      hubPolicy: over.hubPolicy ?? view.hubPolicy,
      items: [{ tokenName: item, itemKeyHash: "e5".repeat(28) }],
    }),
  );
const hubDatum = (itemName = item) =>
  dataToCborHex(encodeSocialHubDatum({ owner: issuer, batchId, itemName, profile: { name: "ab".repeat(40) } }));

interface Out {
  address?: string;
  tokens?: Record<string, Record<string, bigint>>;
  datum?: string;
}
function aTx(outputs: Out[], opts: { mint?: Record<string, Record<string, bigint>>; failed?: boolean } = {}): Transaction {
  return {
    id: "f6".repeat(32),
    spends: opts.failed ? "collaterals" : "inputs",
    inputs: [],
    outputs: outputs.map((o) => ({
      address: o.address ?? scriptAddressOf(view.goodsPolicy, 0),
      value: { ada: { lovelace: 2_000_000n }, ...(o.tokens ?? {}) },
      ...(o.datum ? { datum: o.datum } : {}),
    })),
    ...(opts.mint ? { mint: opts.mint } : {}),
    signatories: [],
  } as unknown as Transaction;
}
const batchOut = (over: Out = {}): Out => ({ tokens: { [view.goodsPolicy]: { [batchId]: 1n } }, datum: batchDatum(), ...over });
const hubOut = (over: Out = {}): Out => ({
  address: scriptAddressOf(view.hubPolicy, 0),
  tokens: { [view.hubPolicy]: { [hubName]: 1n } },
  datum: hubDatum(),
  ...over,
});
const types = (tx: Transaction) => decodeGoodsTransaction(tx, view).facts.map((f) => f.type);

describe("connected goods: indexer decoding", () => {
  it("decodes a batch output and a hub output, at the enterprise address or with a stake part", () => {
    const staked = scriptAddress(view.goodsPolicy, 0, "99".repeat(28));
    const { facts, errors } = decodeGoodsTransaction(aTx([batchOut({ address: staked }), hubOut()]), view);
    expect(errors).to.deep.equal([]);
    expect(facts).to.have.length(2);
    expect(facts[0]).to.deep.include({
      type: "goods.batch",
      batchId,
      issuer,
      address: staked,
      outRef: { txHash: "f6".repeat(32), index: 0 },
    });
    expect(facts[1]).to.deep.include({
      type: "goods.hub",
      hubName,
      owner: issuer,
      batchId,
      itemName: item,
      profile: { name: "ab".repeat(40) },
    });
  });

  it("skips a batch naming another hub policy, a datum naming another token, an output elsewhere or without the token", () => {
    expect(types(aTx([batchOut({ datum: batchDatum({ hubPolicy: "77".repeat(28) }) })]))).to.deep.equal([]);
    expect(types(aTx([batchOut({ datum: batchDatum({ batchId: "88".repeat(32) }) })]))).to.deep.equal([]);
    expect(types(aTx([batchOut({ address: scriptAddressOf("99".repeat(28), 0) })]))).to.deep.equal([]);
    expect(types(aTx([batchOut({ tokens: {} })]))).to.deep.equal([]);
    expect(types(aTx([hubOut({ datum: hubDatum(Buffer.from("shoe-0002").toString("hex")) })])), "hub name not its datum's").to.deep.equal(
      [],
    );
  });

  it("closes a batch whose token is burned; decodes nothing from a transaction whose scripts failed", () => {
    expect(decodeGoodsTransaction(aTx([], { mint: { [view.goodsPolicy]: { [batchId]: -1n } } }), view).facts).to.deep.equal([
      { type: "goods.batch.closed", batchId },
    ]);
    expect(types(aTx([batchOut(), hubOut()], { failed: true }))).to.deep.equal([]);
  });

  it("reports an undecodable datum as an error, not a fact", () => {
    const { facts, errors } = decodeGoodsTransaction(aTx([batchOut({ datum: "d87980" })]), view);
    expect(facts).to.deep.equal([]);
    expect(errors).to.have.length(1);
  });

  it("gives the indexer both policies as its scripts, and keys each fact by its batch or hub", () => {
    const decoder = goodsFactDecoder(view);
    expect(decoder.scriptHashes).to.deep.equal([view.goodsPolicy, view.hubPolicy]);
    const { facts } = decoder.decode(aTx([batchOut(), hubOut()], { mint: { [view.goodsPolicy]: { ["a7".repeat(32)]: -1n } } }));
    expect(facts.map((f) => decoder.keyOf(f))).to.deep.equal([`batch:${batchId}`, `hub:${hubName}`, `batch:${"a7".repeat(32)}`]);
  });
});
