/** The in-flight registry over a real (in-memory) store: hand-outs, locks, pending outputs, reconciliation, expiry. */
import { expect } from "chai";
import { CSL } from "../../shared/csl/lib";
import type { OgmiosUtxo } from "../../shared/csl";
import { txIdOf } from "../../shared/csl";
import { InflightRegistry, PARSED_OUTPUTS_KEPT } from "../../shared/inflight";
import { createStore, type Store } from "../../shared/store";
import { newWallet } from "../../fixtures/onchain/test-chain";

const utxo = (txId: string, index: number, address: string, lovelace: bigint): OgmiosUtxo => ({
  transaction: { id: txId },
  index,
  address,
  value: { ada: { lovelace } },
});

/** A minimal tx body spending `inputs` and paying `outputs` (enough for decodeTx). */
function txHex(inputs: OgmiosUtxo[], outputs: { address: string; lovelace: bigint }[]): string {
  const ins = CSL.TransactionInputs.new();
  for (const i of inputs) ins.add(CSL.TransactionInput.new(CSL.TransactionHash.from_hex(i.transaction.id), i.index));
  const outs = CSL.TransactionOutputs.new();
  for (const o of outputs)
    outs.add(CSL.TransactionOutput.new(CSL.Address.from_bech32(o.address), CSL.Value.new(CSL.BigNum.from_str(o.lovelace.toString()))));
  const body = CSL.TransactionBody.new_tx_body(ins, outs, CSL.BigNum.from_str("170000"));
  return CSL.Transaction.new(body, CSL.TransactionWitnessSet.new()).to_hex();
}

describe("InflightRegistry", () => {
  let store: Store;
  let now = 1_000_000;
  const clock = () => now;
  const wallet = newWallet();
  const a = utxo("aa".repeat(32), 0, wallet.address, 10_000_000n);
  const b = utxo("bb".repeat(32), 1, wallet.address, 20_000_000n);
  const ref = (u: OgmiosUtxo) => ({ txHash: u.transaction.id, index: u.index });

  beforeEach(async () => {
    store = await createStore({ inMemory: true });
    now = 1_000_000;
  });
  afterEach(() => store.close());

  it("hands inputs out without ever refusing: a later build takes over, and other builds see what is handed out", async () => {
    const [r1, r2] = await Promise.all([InflightRegistry.open(store, clock), InflightRegistry.open(store, clock)]);
    await r1.handOut([ref(a), ref(b)], "build-1", 5_000);
    expect([...(await r2.handedOutAmong([ref(a), ref(b)], "build-2"))].sort()).to.deep.equal([
      `${a.transaction.id}#0`,
      `${b.transaction.id}#1`,
    ]);
    expect(await r1.handedOutAmong([ref(a)], "build-1"), "its own hand-outs do not count for a build").to.have.property("size", 0);
    await r2.handOut([ref(b)], "build-2", 5_000);
    expect([...(await r1.handedOutAmong([ref(a), ref(b)], "build-1"))]).to.deep.equal([`${b.transaction.id}#1`]);
    // A hand-out does not hide anything from the wallet: builds decide what to prefer.
    expect((await r1.spendable(wallet.address, [a, b], wallet.paymentKeyHash)).map((u) => u.transaction.id)).to.deep.equal([
      a.transaction.id,
      b.transaction.id,
    ]);
    await r2.takeBack("build-2");
    expect(await r1.handedOutAmong([ref(b)], "build-1")).to.have.property("size", 0);
    now += 5_001;
    expect(await r2.handedOutAmong([ref(a)], "build-2"), "hand-outs lapse").to.have.property("size", 0);
  });

  it("locks the inputs of a submitted tx, offers its outputs as pending to the wallet that signed it, and releases both on confirmation", async () => {
    const reg = await InflightRegistry.open(store, clock);
    const hex = wallet.signTxFull(txHex([a], [{ address: wallet.address, lovelace: 9_000_000n }]));
    const txId = txIdOf(hex);
    await reg.recordSubmitted({ txId, cborHex: hex, expiresAt: now + 60_000 });
    const spendable = await reg.spendable(wallet.address, [a, b], wallet.paymentKeyHash);
    expect(spendable.map((u) => `${u.transaction.id}#${u.index}`)).to.deep.equal([`${b.transaction.id}#1`, `${txId}#0`]);
    expect(BigInt(spendable[1]!.value.ada.lovelace)).to.equal(9_000_000n);
    expect(await reg.pendingOutputs([{ txHash: txId, index: 0 }, ref(b)])).to.have.length(1);
    await reg.reconcile({ inMempoolAmong: async () => new Set() }); // a block included it
    expect((await reg.spendable(wallet.address, [b], wallet.paymentKeyHash)).map((u) => u.index)).to.deep.equal([1]);
  });

  it("never offers a pending output to a wallet that did not sign its transaction", async () => {
    const reg = await InflightRegistry.open(store, clock);
    const stranger = newWallet();
    const s = utxo("dd".repeat(32), 0, stranger.address, 50_000_000n);
    // the stranger pays the wallet (and could double-spend that payment elsewhere): no phantom change for the wallet
    const hex = stranger.signTxFull(txHex([s], [{ address: wallet.address, lovelace: 30_000_000n }]));
    await reg.recordSubmitted({ txId: txIdOf(hex), cborHex: hex, expiresAt: now + 60_000 });
    expect((await reg.spendable(wallet.address, [a], wallet.paymentKeyHash)).map((u) => u.transaction.id)).to.deep.equal([
      a.transaction.id,
    ]);
  });

  it("follows the node's mempool: releases every record whose transaction left it (included, or dropped for good)", async () => {
    const reg = await InflightRegistry.open(store, clock);
    const landed = wallet.signTxFull(txHex([a], [{ address: wallet.address, lovelace: 9_000_000n }]));
    const doomed = wallet.signTxFull(txHex([b], [{ address: wallet.address, lovelace: 19_000_000n }]));
    const c = utxo("ee".repeat(32), 2, wallet.address, 30_000_000n);
    const waiting = wallet.signTxFull(txHex([c], [{ address: wallet.address, lovelace: 29_000_000n }]));
    for (const hex of [landed, doomed, waiting]) await reg.recordSubmitted({ txId: txIdOf(hex), cborHex: hex, expiresAt: now + 3_600_000 });
    // landed: in a block; doomed: the node dropped it (b was spent by a transaction the service never saw)
    const released = await reg.reconcile({ inMempoolAmong: async (ids) => new Set(ids.filter((id) => id === txIdOf(waiting))) });
    expect(released.sort()).to.deep.equal([txIdOf(landed), txIdOf(doomed)].sort());
    // b is free again, and only the waiting transaction's change is still pending
    expect((await reg.spendable(wallet.address, [b, c], wallet.paymentKeyHash)).map((u) => u.transaction.id)).to.deep.equal([
      b.transaction.id,
      txIdOf(waiting),
    ]);
  });

  it("chains: an output spent by a later pending tx is no longer spendable, and the newest holder of a unit is found", async () => {
    const reg = await InflightRegistry.open(store, clock);
    const hex1 = wallet.signTxFull(txHex([a], [{ address: wallet.address, lovelace: 9_000_000n }]));
    const tx1 = txIdOf(hex1);
    await reg.recordSubmitted({ txId: tx1, cborHex: hex1, expiresAt: now + 60_000 });
    const p1 = utxo(tx1, 0, wallet.address, 9_000_000n);
    const hex2 = wallet.signTxFull(txHex([p1], [{ address: wallet.address, lovelace: 8_000_000n }]));
    const tx2 = txIdOf(hex2);
    now += 1;
    await reg.recordSubmitted({ txId: tx2, cborHex: hex2, expiresAt: now + 60_000 });
    expect((await reg.spendable(wallet.address, [a], wallet.paymentKeyHash)).map((u) => u.transaction.id)).to.deep.equal([tx2]);
    expect(await reg.pendingOutputWith("cc".repeat(28), "00")).to.equal(undefined);
  });

  it("offers every unspent pending output at an address, whoever signed its transaction, newest first", async () => {
    const reg = await InflightRegistry.open(store, clock);
    const other = newWallet();
    const shared = newWallet().address; // stands for a script address two wallets write to
    const hex1 = wallet.signTxFull(txHex([a], [{ address: shared, lovelace: 9_000_000n }]));
    const tx1 = txIdOf(hex1);
    await reg.recordSubmitted({ txId: tx1, cborHex: hex1, expiresAt: now + 60_000 });
    now += 1;
    const hex2 = other.signTxFull(txHex([utxo(tx1, 0, shared, 9_000_000n)], [{ address: shared, lovelace: 8_000_000n }]));
    const tx2 = txIdOf(hex2);
    await reg.recordSubmitted({ txId: tx2, cborHex: hex2, expiresAt: now + 60_000 });
    now += 1;
    const hex3 = other.signTxFull(
      txHex(
        [b],
        [
          { address: shared, lovelace: 7_000_000n },
          { address: other.address, lovelace: 1_000_000n },
        ],
      ),
    );
    const tx3 = txIdOf(hex3);
    await reg.recordSubmitted({ txId: tx3, cborHex: hex3, expiresAt: now + 60_000 });
    // tx1's output is spent by tx2; outputs elsewhere are not offered
    expect((await reg.pendingOutputsAt(shared)).map((u) => `${u.transaction.id}#${u.index}`)).to.deep.equal([`${tx3}#0`, `${tx2}#0`]);
    now += 120_000;
    expect(await reg.pendingOutputsAt(shared), "expired submissions offer nothing").to.deep.equal([]);
  });

  it("expires submissions past their expiry", async () => {
    const reg = await InflightRegistry.open(store, clock);
    const hex = txHex([a], [{ address: wallet.address, lovelace: 9_000_000n }]);
    await reg.recordSubmitted({ txId: txIdOf(hex), cborHex: hex, expiresAt: now + 10 });
    now += 11;
    expect(await reg.expire()).to.equal(1);
    expect(await reg.spendable(wallet.address, [a], wallet.paymentKeyHash)).to.have.length(1);
  });

  it("sweeps expired records at most once per interval, and answers as if swept in between", async () => {
    const reg = await InflightRegistry.open(store, clock);
    const count = async () => (await store.collection("inflight_txs").find({})).length;
    const record = async (u: OgmiosUtxo, ttl: number) => {
      const hex = txHex([u], [{ address: wallet.address, lovelace: 9_000_000n }]);
      await reg.recordSubmitted({ txId: txIdOf(hex), cborHex: hex, expiresAt: now + ttl });
    };
    await reg.sweep(1_000);
    await record(a, 10);
    now += 11;
    await reg.sweep(1_000);
    expect(await count(), "within the interval nothing is swept").to.equal(1);
    expect(await reg.inFlightAmong([ref(a)]), "an expired record locks nothing").to.deep.equal(new Set());
    expect(await reg.spendable(wallet.address, [a], wallet.paymentKeyHash)).to.have.length(1);
    now += 1_000;
    await reg.sweep(1_000);
    expect(await count(), "after the interval the expired record is gone").to.equal(0);
    await record(b, 60_000);
    now += 2_000;
    await reg.sweep(1_000);
    expect(await count(), "an unexpired record stays").to.equal(1);
  });

  it("parses a record's outputs once, yet answers what the store holds now: a record replaced or released by another replica is never served stale", async () => {
    const [r1, r2] = await Promise.all([InflightRegistry.open(store, clock), InflightRegistry.open(store, clock)]);
    const first = wallet.signTxFull(txHex([a], [{ address: wallet.address, lovelace: 9_000_000n }]));
    const txId = txIdOf(first);
    await r2.recordSubmitted({ txId, cborHex: first, expiresAt: now + 60_000 });
    const read = async () => (await r1.pendingOutputs([{ txHash: txId, index: 0 }])).map((u) => BigInt(u.value.ada.lovelace));
    expect(await read()).to.deep.equal([9_000_000n]);
    const once = await r1.pendingOutputs([{ txHash: txId, index: 0 }]);
    expect(once[0], "the same parsed output serves the next read").to.equal((await r1.pendingOutputs([{ txHash: txId, index: 0 }]))[0]);
    expect(Object.isFrozen(once[0]!.value.ada), "shared outputs cannot be changed by a caller").to.equal(true);
    // The other replica records the same id again with other outputs (a resubmission): r1 answers the new text.
    const second = wallet.signTxFull(txHex([a], [{ address: wallet.address, lovelace: 7_000_000n }]));
    await r2.recordSubmitted({ txId, cborHex: second, expiresAt: now + 60_000 });
    expect(await read()).to.deep.equal([7_000_000n]);
    expect((await r1.spendable(wallet.address, [b], wallet.paymentKeyHash)).map((u) => BigInt(u.value.ada.lovelace))).to.deep.equal([
      20_000_000n,
      7_000_000n,
    ]);
    // Released by the other replica (a block included it): r1 offers nothing of it.
    await r2.reconcile({ inMempoolAmong: async () => new Set() });
    expect(await read()).to.deep.equal([]);
    expect(await r1.spendable(wallet.address, [b], wallet.paymentKeyHash)).to.have.length(1);
  });

  it("remembers the parsed outputs of a bounded number of records", async () => {
    const reg = await InflightRegistry.open(store, clock);
    const ids = Array.from({ length: PARSED_OUTPUTS_KEPT + 5 }, (_, i) => (i + 1).toString(16).padStart(64, "0"));
    const lovelace = (i: number) => ({ $bigint: String(2_000_000 + i) });
    await store.collection("inflight_txs").insertMany(
      ids.map((id, i) => ({
        _id: id,
        inputs: [],
        addresses: [wallet.address],
        units: [],
        signers: [],
        outputs: JSON.stringify([{ transaction: { id }, index: 0, address: wallet.address, value: { ada: { lovelace: lovelace(i) } } }]),
        submittedAt: now,
        seq: i,
        expiresAt: now + 60_000,
      })),
    );
    const all = await reg.pendingOutputsAt(wallet.address);
    expect(all).to.have.length(PARSED_OUTPUTS_KEPT + 5);
    expect(new Set(all.map((u) => u.value.ada.lovelace)).size, "every record's own outputs").to.equal(ids.length);
    expect(reg.parsedRecords).to.equal(PARSED_OUTPUTS_KEPT);
  });
});
