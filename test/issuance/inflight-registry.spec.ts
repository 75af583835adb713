/** The in-flight registry over a real (in-memory) store: atomic claims, locks, pending outputs, expiry. */
import { expect } from "chai";
import { CSL } from "../../shared/csl/lib";
import type { OgmiosUtxo } from "../../shared/csl";
import { txIdOf } from "../../shared/csl";
import { InflightRegistry } from "../../shared/inflight";
import { createStore, type Store } from "../../shared/store";
import { newWallet } from "../onchain/support/test-chain";

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
  for (const o of outputs) outs.add(CSL.TransactionOutput.new(CSL.Address.from_bech32(o.address), CSL.Value.new(CSL.BigNum.from_str(o.lovelace.toString()))));
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
  const ref = (u: OgmiosUtxo) => ({ txId: u.transaction.id, index: u.index });

  beforeEach(async () => {
    store = await createStore({ inMemory: true });
    now = 1_000_000;
  });
  afterEach(() => store.close());

  it("lets exactly one of two replicas racing for the same input claim it", async () => {
    const [r1, r2] = await Promise.all([InflightRegistry.open(store, clock), InflightRegistry.open(store, clock)]);
    const results = await Promise.all([r1.claimForBuild([ref(a), ref(b)], "build-1", 5_000), r2.claimForBuild([ref(b)], "build-2", 5_000)]);
    expect(results.filter((r) => r.ok)).to.have.length(1);
    const lost = results.find((r) => !r.ok) as { ok: false; conflicts: string[] };
    expect(lost.conflicts).to.include(`${b.transaction.id}#1`);
    const expectedFree = results[0]!.ok ? [] : [a.transaction.id];
    expect((await r1.spendable(wallet.address, [a, b])).map((u) => u.transaction.id)).to.deep.equal(expectedFree);
    now += 5_001;
    expect(await r2.claimForBuild([ref(b)], "build-3", 5_000)).to.deep.equal({ ok: true });
  });

  it("locks the inputs of a submitted tx, offers its outputs as pending, and releases both on confirmation", async () => {
    const reg = await InflightRegistry.open(store, clock);
    const hex = txHex([a], [{ address: wallet.address, lovelace: 9_000_000n }]);
    const txId = txIdOf(hex);
    await reg.recordSubmitted({ txId, cborHex: hex, expiresAt: now + 60_000 });
    const spendable = await reg.spendable(wallet.address, [a, b]);
    expect(spendable.map((u) => `${u.transaction.id}#${u.index}`)).to.deep.equal([`${b.transaction.id}#1`, `${txId}#0`]);
    expect(BigInt(spendable[1]!.value.ada.lovelace)).to.equal(9_000_000n);
    expect(await reg.pendingOutputs([{ txId, index: 0 }, ref(b)])).to.have.length(1);
    const claim = await reg.claimForBuild([ref(a)], "late", 1_000);
    expect(claim.ok).to.equal(false);
    await reg.confirmed([txId]);
    expect((await reg.spendable(wallet.address, [b])).map((u) => u.index)).to.deep.equal([1]);
  });

  it("chains: an output spent by a later pending tx is no longer spendable, and the newest holder of a unit is found", async () => {
    const reg = await InflightRegistry.open(store, clock);
    const hex1 = txHex([a], [{ address: wallet.address, lovelace: 9_000_000n }]);
    const tx1 = txIdOf(hex1);
    await reg.recordSubmitted({ txId: tx1, cborHex: hex1, expiresAt: now + 60_000 });
    const p1 = utxo(tx1, 0, wallet.address, 9_000_000n);
    const hex2 = txHex([p1], [{ address: wallet.address, lovelace: 8_000_000n }]);
    const tx2 = txIdOf(hex2);
    now += 1;
    await reg.recordSubmitted({ txId: tx2, cborHex: hex2, expiresAt: now + 60_000 });
    expect((await reg.spendable(wallet.address, [a])).map((u) => u.transaction.id)).to.deep.equal([tx2]);
    expect(await reg.pendingOutputWith("cc".repeat(28), "00")).to.equal(undefined);
  });

  it("expires submissions past their expiry", async () => {
    const reg = await InflightRegistry.open(store, clock);
    const hex = txHex([a], [{ address: wallet.address, lovelace: 9_000_000n }]);
    await reg.recordSubmitted({ txId: txIdOf(hex), cborHex: hex, expiresAt: now + 10 });
    now += 11;
    expect(await reg.expire()).to.equal(1);
    expect(await reg.spendable(wallet.address, [a])).to.have.length(1);
  });
});
