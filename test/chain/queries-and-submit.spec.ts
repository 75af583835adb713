import { expect } from "chai";
import {
  buildTx,
  buildWithEvaluation,
  plutusScriptHash,
  scriptAddress,
  singleWrapFlat,
  stripVkeyWitnesses,
  type OgmiosUtxo,
} from "../../shared/csl";
import { ChainError } from "../../shared/chain";
import { ogmiosProtocolParameters } from "../../shared/devnet/protocol-parameters";
import { startHarness, type Harness } from "./support/devnet-harness";

/** plu-ts 0.9.0 V3: succeeds iff the redeemer is I 42 (flat) */
const REDEEMER_42 = singleWrapFlat("010100980048c966002003149a2cab9a19b87375a646ae84d5d1000991aab9e3754002002902a5205401");

async function expectChainError(p: Promise<unknown>): Promise<ChainError> {
  try {
    await p;
  } catch (err) {
    expect(err).to.be.instanceOf(ChainError);
    return err as ChainError;
  }
  throw new Error("expected the call to reject with a ChainError");
}

describe("chain client against the devnet: queries, submit, evaluate", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it("answers ledger-state and network queries with Ogmios types (lovelace as bigint)", async () => {
    const pp = await h.client.protocolParameters();
    expect(pp).to.deep.equal(ogmiosProtocolParameters());
    const utxos = await h.client.utxosByAddresses([h.wallet.address]);
    expect(utxos).to.have.length(1);
    expect(utxos[0]!.value.ada.lovelace).to.equal(1_000_000_000n);
    const byRef = await h.client.utxosByOutputReferences([{ txHash: utxos[0]!.transaction.id, index: Number(utxos[0]!.index) }]);
    expect(byRef).to.deep.equal(utxos);
    expect(await h.client.ledgerTip()).to.equal("origin");
    expect(await h.client.networkTip()).to.equal("origin");
    const summaries = await h.client.eraSummaries();
    expect(summaries.length).to.be.greaterThan(0);
    expect(summaries[0]!.parameters.slotLength.milliseconds).to.equal(1000);
    expect(await h.client.epoch()).to.be.a("number");
    expect(await h.client.networkStartTime()).to.be.instanceOf(Date);
  });

  it("submits a payment built by the csl facade and signed by the wallet; a block confirms it", async () => {
    const { txId, cborHex } = await h.signedPayment(3_000_000n);
    expect(await h.client.submit(cborHex)).to.equal(txId);
    expect(await h.client.utxosByAddresses([h.payee.address])).to.deep.equal([]); // queries answer the confirmed state
    const block = h.devnet.produceBlock()!;
    const paid = await h.client.utxosByAddresses([h.payee.address]);
    expect(paid.map((u) => [u.transaction.id, u.value.ada.lovelace])).to.deep.equal([[txId, 3_000_000n]]);
    expect(await h.client.ledgerTip()).to.deep.equal({ slot: block.slot, id: block.id });
    expect(await h.client.blockHeight()).to.equal(1);
  });

  it("maps a double spend to UNKNOWN_OUTPUT_REFERENCES with the Ogmios code 3117 and its data", async () => {
    const { cborHex } = await h.signedPayment();
    await h.client.submit(cborHex);
    const err = await expectChainError(h.client.submit(cborHex));
    expect(err.type).to.equal("UNKNOWN_OUTPUT_REFERENCES");
    expect(err.code).to.equal(3117);
    expect(err.reason).to.equal("UnknownOutputReferences");
    expect(err.data).to.have.property("unknownOutputReferences").that.is.an("array").with.length.greaterThan(0);
    expect(err.retryable).to.equal(false);
  });

  it("maps an unsigned transaction to SIGNATURES_INVALID (3101 MissingSignatories) naming the missing key", async () => {
    const { cborHex } = await h.signedPayment();
    const unsigned = stripVkeyWitnesses(cborHex);
    const err = await expectChainError(h.client.submit(unsigned));
    expect(err.type).to.equal("SIGNATURES_INVALID");
    expect(err.code).to.equal(3101);
    expect(err.reason).to.equal("MissingSignatories");
    expect(err.data).to.deep.equal({ missingSignatories: [h.wallet.paymentKeyHash] });
  });

  it("evaluates a Plutus spend (also with additionalUtxo) and submits the rebuilt tx; a failing redeemer is SCRIPT_EXECUTION_FAILED 3010", async () => {
    const pp = await h.client.protocolParameters();
    const hash = plutusScriptHash(REDEEMER_42);
    // lock 5 ADA at the script with inline datum 42, confirm it
    const funds = await h.client.utxosByAddresses([h.wallet.address]);
    const lockTx = buildTx({
      protocolParameters: pp,
      utxos: funds,
      changeAddress: h.wallet.address,
      outputs: [{ address: scriptAddress(hash, 0), lovelace: 5_000_000n, inlineDatum: "182a" }],
    });
    await h.client.submit(h.wallet.signTxFull(lockTx.cborHex));
    h.devnet.produceBlock();
    const utxos = await h.client.utxosByAddresses([h.wallet.address]);
    const [locked] = await h.client.utxosByOutputReferences([{ txHash: lockTx.txId, index: 0 }]);
    expect(locked?.datum).to.equal("182a");

    const spec = (redeemer: string) => ({
      protocolParameters: pp,
      utxos,
      changeAddress: h.wallet.address,
      scriptInputs: [{ utxo: locked as OgmiosUtxo, script: { language: "plutus:v3" as const, cbor: REDEEMER_42 }, redeemer }],
    });
    // The failing redeemer first: once the spend below is submitted, the locked output is gone (an unknown input).
    const failing = await expectChainError(buildWithEvaluation(spec("1829"), (cbor) => h.client.evaluate(cbor)));
    expect(failing.type).to.equal("SCRIPT_EXECUTION_FAILED");
    expect(failing.code).to.equal(3010);
    expect(failing.data["value"], "Ogmios lists the failing validators").to.be.an("array");

    const tx = await buildWithEvaluation(spec("182a"), (cbor) => h.client.evaluate(cbor));
    expect(tx.redeemers).to.have.length(1);
    expect(tx.redeemers[0]!.memory > 0n).to.equal(true);
    expect(await h.client.submit(h.wallet.signTxFull(tx.cborHex))).to.equal(tx.txId);

    const spent = await expectChainError(buildWithEvaluation(spec("1829"), (cbor) => h.client.evaluate(cbor)));
    expect(spent.type, "an evaluation of a spent input says so, not 'script failed'").to.equal("UNKNOWN_OUTPUT_REFERENCES");

    // additionalUtxo: evaluate a spend of an output that exists nowhere on chain
    const phantom: OgmiosUtxo = {
      transaction: { id: "ab".repeat(32) },
      index: 0,
      address: scriptAddress(hash, 0),
      value: { ada: { lovelace: 4_000_000n } },
      datum: "182a",
    };
    const phantomSpec = {
      ...spec("182a"),
      utxos: await h.client.utxosByAddresses([h.wallet.address]),
      scriptInputs: [{ ...spec("182a").scriptInputs[0]!, utxo: phantom }],
    };
    const withExtra = await buildWithEvaluation(phantomSpec, (cbor) => h.client.evaluate(cbor, [phantom]));
    expect(withExtra.evaluation.size).to.equal(1);
  });
});
