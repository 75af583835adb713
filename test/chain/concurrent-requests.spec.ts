/**
 * Found by the fault campaign's load test (builds refused with "evaluation result mint:0 matches no redeemer purpose
 * of the tx"): concurrent evaluate and submit calls on the one request connection must each get their own answer,
 * also when the chain answers them out of order. The devnet answers a request it can refuse at once (here: an
 * additional UTxO that overlaps the ledger, a CBOR that does not decode) before one it has to work on, so the second
 * call's answer arrives first.
 */
import { expect } from "chai";
import { ChainError } from "../../shared/chain";
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
});
