/**
 * Found by the fault campaign's load test (builds refused with "evaluation result mint:0 matches no redeemer purpose
 * of the tx"): concurrent evaluate and submit calls on the one request connection must each get their own answer,
 * also when the chain answers them out of order. The devnet answers a request it can refuse at once (here: an
 * additional UTxO that overlaps the ledger, a CBOR that does not decode) before one it has to work on, so the second
 * call's answer arrives first.
 */
import { safeJSON } from "@cardano-ogmios/client";
import { expect } from "chai";
import { ChainError } from "../../shared/chain";
import { Wallet, generateMnemonic } from "../../shared/wallet";
import { startHarness, type Harness } from "./support/devnet-harness";

describe("chain client: concurrent requests answered out of order get their own answers", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it("evaluate: a slow success and a quick refusal sent together each reach their caller", async () => {
    const { cborHex } = await h.signedPayment(3_000_000n);
    const [known] = await h.client.utxosByAddresses([h.wallet.address]);
    const [slow, quick] = await Promise.allSettled([h.client.evaluate(cborHex), h.client.evaluate(cborHex, [known!])]);
    expect(slow.status, "the plain evaluation succeeds").to.equal("fulfilled");
    expect((slow as PromiseFulfilledResult<unknown>).value).to.deep.equal([]);
    expect(quick.status, "the overlapping one is refused").to.equal("rejected");
    expect((quick as PromiseRejectedResult).reason).to.be.instanceOf(ChainError);
  });

  it("submit: a valid transaction and an undecodable one sent together each reach their caller", async () => {
    const { txId, cborHex } = await h.signedPayment(3_000_000n);
    const [ok, bad] = await Promise.allSettled([h.client.submit(cborHex), h.client.submit("84a0a0f5f6")]);
    expect(ok.status, "the valid transaction is accepted").to.equal("fulfilled");
    expect((ok as PromiseFulfilledResult<string>).value).to.equal(txId);
    expect(bad.status, "the undecodable one is refused").to.equal("rejected");
  });

  it("UTxO queries sent together each get their own answer, and each answer is parsed once", async () => {
    const { txId } = await h.payAndProduce(3_000_000n);
    const strangers = Array.from({ length: 4 }, () => Wallet.fromMnemonic(generateMnemonic()).address);
    const parse = safeJSON.parse;
    let parses = 0;
    safeJSON.parse = (raw: string) => (parses++, parse.call(safeJSON, raw));
    let answers: Awaited<ReturnType<Harness["client"]["utxosByAddresses"]>>[];
    try {
      answers = await Promise.all([
        h.client.utxosByAddresses([h.wallet.address]),
        h.client.utxosByAddresses([h.payee.address]),
        ...strangers.map((a) => h.client.utxosByAddresses([a])),
        h.client.utxosByOutputReferences([{ txHash: txId, index: 0 }]),
        h.client.utxosByOutputReferences([{ txHash: "00".repeat(32), index: 0 }]),
      ]);
    } finally {
      safeJSON.parse = parse;
    }
    const [mine, payee, ...rest] = answers;
    expect(mine!.length, "the wallet's change").to.be.greaterThan(0);
    expect(mine!.every((u) => u.address === h.wallet.address)).to.equal(true);
    expect(payee!.map((u) => u.value.ada.lovelace)).to.deep.equal([3_000_000n]);
    expect(
      rest.slice(0, 4).map((a) => a.length),
      "addresses never paid",
    ).to.deep.equal([0, 0, 0, 0]);
    const [byRef, unknownRef] = rest.slice(4);
    expect(byRef!.map((u) => [u.transaction.id, u.index])).to.deep.equal([[txId, 0]]);
    expect(unknownRef).to.deep.equal([]);
    // one parse per answer: with a listener per request in flight each of the 8 answers was parsed up to 8 times
    expect(parses).to.equal(8);
  });
});
