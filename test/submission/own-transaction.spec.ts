/**
 * The service's own transactions (shared/submission/own-transaction.ts), which the calendar, the faucet and the
 * first start send: signed in full by the wallet, submitted, recorded in flight until the validity bound plus the
 * margin (capped); a refused submission records nothing.
 */
import { expect } from "chai";
import { buildPayment, txIdOf } from "../../shared/csl";
import { Devnet } from "../../shared/devnet";
import { DEFAULT_EXPIRY_POLICY } from "../../shared/submission/in-flight-expiry";
import { sendOwnTransaction } from "../../shared/submission/own-transaction";
import { generateMnemonic, Wallet } from "../../shared/wallet";

describe("the service's own transaction: sign, submit, record in flight", () => {
  const wallet = Wallet.fromMnemonic(generateMnemonic());
  let devnet: Devnet;
  const NOW = 1_800_000_000_000;
  const payment = (ttlSlot?: number) =>
    buildPayment({
      protocolParameters: devnet.protocolParameters() as never,
      utxos: devnet.queryUtxo({ addresses: [wallet.address] }) as never,
      changeAddress: wallet.address,
      outputs: [{ address: wallet.enterpriseAddress, lovelace: 2_000_000n }],
      ...(ttlSlot !== undefined ? { ttlSlot } : {}),
    }).cborHex;

  beforeEach(async () => {
    devnet = await Devnet.create({ genesis: [{ address: wallet.address, lovelace: 50_000_000n }] });
  });
  afterEach(() => devnet.close());

  it("submits the fully signed transaction and records it until its validity bound plus the margin", async () => {
    const ttlSlot = devnet.currentSlot() + 100;
    const unsigned = payment(ttlSlot);
    const recorded: { txId: string; cborHex: string; expiresAt: number }[] = [];
    const sent = await sendOwnTransaction(wallet, unsigned, {
      submit: (signed) => devnet.submitTransaction(signed),
      inflight: { recordSubmitted: (entry) => void recorded.push(entry) },
      slotToTime: (slot) => NOW + (slot - ttlSlot) * 1000 + 60_000,
      now: () => NOW,
    });
    expect(sent.txId).to.equal(txIdOf(unsigned));
    expect(devnet.mempoolTransactions().map((t) => t.id)).to.deep.equal([sent.txId]);
    expect(recorded).to.have.length(1);
    expect(recorded[0]).to.deep.include({ txId: sent.txId, cborHex: wallet.signTxFull(unsigned), expiresAt: NOW + 60_000 + 120_000 });
    expect(sent.inFlightUntil).to.equal(recorded[0]!.expiresAt);
  });

  it("without a slot clock, or without a bound, the record lives the registry's longest", async () => {
    const recorded: number[] = [];
    const sent = await sendOwnTransaction(wallet, payment(), {
      submit: (signed) => devnet.submitTransaction(signed),
      inflight: { recordSubmitted: (entry) => void recorded.push(entry.expiresAt) },
      now: () => NOW,
    });
    expect(recorded).to.deep.equal([NOW + DEFAULT_EXPIRY_POLICY.maxLifetimeMs]);
    expect(sent.inFlightUntil).to.equal(NOW + DEFAULT_EXPIRY_POLICY.maxLifetimeMs);
  });

  it("records nothing when the chain refuses the transaction", async () => {
    const recorded: unknown[] = [];
    const refusal = await sendOwnTransaction(wallet, payment(), {
      submit: () => Promise.reject(new Error("refused")),
      inflight: { recordSubmitted: (entry) => void recorded.push(entry) },
      now: () => NOW,
    }).then(
      () => expect.fail("expected the refusal"),
      (err: Error) => err,
    );
    expect(refusal.message).to.equal("refused");
    expect(recorded).to.deep.equal([]);
  });
});
