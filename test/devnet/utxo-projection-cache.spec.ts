/**
 * The devnet answers `queryLedgerState/utxo` from each output's JSON text, made once and kept with the output while
 * it is unspent (shared/devnet/utxo-set.ts, `UtxoEntry.ogmiosText`). These tests hold that answer to a fresh
 * projection of the same outputs over the real Ogmios client (every reply also passes the schema check), and show
 * that a spent or rolled-back output leaves the answer with its text.
 */
import * as CSL from "@emurgo/cardano-serialization-lib-nodejs";
import { expect } from "chai";
import type { LedgerStateQuery } from "@cardano-ogmios/client";
import { startDevnetServer, type DevnetServer } from "../../shared/devnet";
import { bigintJson } from "../../shared/devnet/bigint-json";
import { UtxoEntry, UtxoSet } from "../../shared/devnet/utxo-set";
import { ALWAYS_TRUE_V3, REDEEMER_IS_42_V3 } from "../../fixtures/devnet/test-scripts.generated";
import { ledgerClient } from "../../fixtures/devnet/ogmios-client-fixture";
import { buildWithMinFee, newKey, plutusV3, type OutRef, type TestKey } from "../../fixtures/devnet/tx-fixtures";
import { fundedDevnet, type Fixture } from "./support/devnet-fixture";

const scriptHex = (script: CSL.PlutusScript) => Buffer.from(script.bytes()).toString("hex");

describe("devnet UTxO answers: each output's JSON made once, never stale", function () {
  this.timeout(60_000);
  let f: Fixture;
  let server: DevnetServer;
  let query: LedgerStateQuery.LedgerStateQueryClient;
  beforeEach(async () => {
    f = await fundedDevnet();
    server = await startDevnetServer(f.devnet, { port: 0 });
    query = await ledgerClient(server);
  });
  afterEach(async () => {
    await query.shutdown();
    await server.close();
    await f.close();
  });

  /** alice pays `holder` an output carrying `script` as its reference script; returns its reference once in a block. */
  async function payWithScript(holder: TestKey, script: CSL.PlutusScript): Promise<OutRef> {
    const from = f.largestOf(f.alice);
    const tx = buildWithMinFee((fee) => ({
      inputs: [from],
      outputs: [
        { address: holder.address, lovelace: 30_000_000n, scriptRef: script },
        { address: f.alice.address, lovelace: from.lovelace - 30_000_000n - fee },
      ],
      fee,
      signers: [f.alice.sk],
    }));
    const id = await f.devnet.submitTransaction(tx.hex);
    f.clock.advanceSlots(1);
    f.devnet.produceBlock();
    return { txHash: id, index: 0 };
  }

  const fresh = (address: string) => f.devnet.queryUtxo({ addresses: [address] });

  it("answers a reference-script output with the same JSON as a fresh projection, the first time and every time after", async () => {
    const holder = newKey();
    const script = plutusV3(REDEEMER_IS_42_V3);
    await payWithScript(holder, script);
    const first = await query.utxo({ addresses: [holder.address] });
    const again = await query.utxo({ addresses: [holder.address] });
    expect(first).to.have.length(1);
    expect(first[0]!.script).to.deep.equal({ language: "plutus:v3", cbor: scriptHex(script) });
    expect(first).to.deep.equal(fresh(holder.address));
    expect(again).to.deep.equal(first);
    for (const filter of [{ addresses: [holder.address, f.alice.address, f.bob.address] }, undefined]) {
      expect(f.devnet.queryUtxoText(filter)).to.equal(bigintJson.stringify(f.devnet.queryUtxo(filter)));
    }
  });

  it("drops a spent output from the answer, by address and by output reference", async () => {
    const holder = newKey();
    const script = plutusV3(ALWAYS_TRUE_V3);
    const out = await payWithScript(holder, script);
    expect(await query.utxo({ addresses: [holder.address] })).to.have.length(1);
    expect(await query.utxo({ outputReferences: [{ transaction: { id: out.txHash }, index: out.index }] })).to.have.length(1);
    const spend = buildWithMinFee(
      (fee) => ({
        inputs: [out],
        outputs: [{ address: holder.address, lovelace: 30_000_000n - fee }],
        fee,
        signers: [holder.sk],
      }),
      0n,
      // a spent output's reference script counts towards the reference-script fee
      script.bytes().length,
    );
    const spentBy = await f.devnet.submitTransaction(spend.hex);
    f.clock.advanceSlots(1);
    f.devnet.produceBlock();
    const after = await query.utxo({ addresses: [holder.address] });
    expect(after.map((u) => `${u.transaction.id}#${u.index}`)).to.deep.equal([`${spentBy}#0`]);
    expect(after[0]!.script, "the new output carries no script").to.equal(undefined);
    expect(after).to.deep.equal(fresh(holder.address));
    expect(await query.utxo({ outputReferences: [{ transaction: { id: out.txHash }, index: out.index }] })).to.deep.equal([]);
  });

  it("drops a rolled-back output from the answer and shows it again, as projected, when its block is forged again", async () => {
    const holder = newKey();
    await payWithScript(holder, plutusV3(REDEEMER_IS_42_V3));
    const before = await query.utxo({ addresses: [holder.address] });
    expect(before).to.have.length(1);
    f.devnet.rollback(1);
    expect(await query.utxo({ addresses: [holder.address] }), "the output's block is gone").to.deep.equal([]);
    f.clock.advanceSlots(1);
    f.devnet.produceBlock();
    const reforged = await query.utxo({ addresses: [holder.address] });
    expect(reforged).to.deep.equal(before);
    expect(reforged).to.deep.equal(fresh(holder.address));
  });

  it("keeps each output's text with the output, never with its reference: another output at the same reference has its own", () => {
    // The ledger cannot put two different outputs at one reference (the transaction id is the hash of the body that
    // holds the output); this is the case a text kept by reference, rather than by output, would get wrong.
    const holder = newKey();
    const output = (script: CSL.PlutusScript) => {
      const o = CSL.TransactionOutput.new(CSL.Address.from_bech32(holder.address), CSL.Value.new(CSL.BigNum.from_str("30000000")));
      o.set_script_ref(CSL.ScriptRef.new_plutus_script(script));
      return o.to_bytes();
    };
    const txId = "ab".repeat(32);
    const a = new UtxoEntry(txId, 0, holder.address, output(plutusV3(ALWAYS_TRUE_V3)));
    const b = new UtxoEntry(txId, 0, holder.address, output(plutusV3(REDEEMER_IS_42_V3)));
    const set = new UtxoSet([a]);
    const textA = set.get(a.key)!.ogmiosText;
    set.remove(a.key);
    set.add(b);
    const textB = set.get(b.key)!.ogmiosText;
    expect(textB).to.not.equal(textA);
    expect(textA).to.equal(bigintJson.stringify(a.ogmios));
    expect(textB).to.equal(bigintJson.stringify(b.ogmios));
    expect(a.ogmios.script).to.deep.equal({ language: "plutus:v3", cbor: scriptHex(plutusV3(ALWAYS_TRUE_V3)) });
    expect(b.ogmios.script).to.deep.equal({ language: "plutus:v3", cbor: scriptHex(plutusV3(REDEEMER_IS_42_V3)) });
  });
});
