// The devnet server through the REAL @cardano-ogmios/client (and a raw socket for protocol edge cases).
import { createChainSynchronizationClient } from "@cardano-ogmios/client";
import type { Block, Point, Origin } from "@cardano-ogmios/schema";
import { expect } from "chai";
import { startDevnetServer, type DevnetServer } from "../../shared/devnet";
import { alicePaysBob, fundedDevnet, GENESIS_LOVELACE, type Fixture } from "./support/devnet-fixture";
import { REDEEMER_IS_42_V3 } from "../../fixtures/devnet/test-scripts.generated";
import { buildWithMinFee, intData, plutusV3, scriptAddress } from "../../fixtures/devnet/tx-fixtures";
import {
  contextFor,
  expectRpcRejection,
  ledgerClient,
  mempoolClient,
  RawSocket,
  rpcCode,
  submissionClient,
} from "../../fixtures/devnet/ogmios-client-fixture";

/** Waits for a condition driven by socket traffic (no fixed sleeps). */
async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe("devnet Ogmios server (real @cardano-ogmios/client)", () => {
  let f: Fixture;
  let server: DevnetServer;
  beforeEach(async () => {
    f = await fundedDevnet();
    server = await startDevnetServer(f.devnet, { port: 0, testControl: true });
  });
  afterEach(async () => {
    await server.close();
    await f.devnet.close();
  });

  it("answers ledger-state and network queries", async () => {
    const client = await ledgerClient(server);
    const params = await client.protocolParameters();
    expect(params.minFeeCoefficient).to.equal(44);
    expect(params.minFeeConstant.ada.lovelace).to.equal(155_381n);
    expect(params.plutusCostModels?.["plutus:v3"]).to.have.length(297);
    const byAddress = await client.utxo({ addresses: [f.alice.address] });
    expect(byAddress).to.have.length(1);
    expect(byAddress[0]!.value.ada.lovelace).to.equal(GENESIS_LOVELACE);
    const byRef = await client.utxo({ outputReferences: [{ transaction: { id: byAddress[0]!.transaction.id }, index: 0 }] });
    expect(byRef[0]!.address).to.equal(f.alice.address);
    expect(await client.utxo()).to.have.length(2);
    expect(await client.ledgerTip()).to.equal("origin");
    expect(await client.networkTip()).to.equal("origin");
    expect(await client.networkBlockHeight()).to.equal("origin");
    expect(await client.epoch()).to.equal(0);
    const summaries = await client.eraSummaries();
    expect(summaries[0]!.parameters.slotLength.milliseconds).to.equal(1000);
    expect(new Date(await client.networkStartTime()).getTime()).to.equal(f.devnet.systemStartMs);
    const genesis = await client.genesisConfiguration("shelley");
    expect(Object.keys(genesis.initialFunds)).to.have.members([f.alice.address, f.bob.address]);
    await client.acquireLedgerState("origin");
    await client.releaseLedgerState();
    await client.shutdown();
  });

  it("submits through the client, answers queries from the confirmed state only, and reports rejections with Ogmios codes", async () => {
    const submitter = await submissionClient(server);
    const queries = await ledgerClient(server);
    const tx = alicePaysBob(f, 3_000_000n);
    const id = await submitter.submitTransaction(tx.hex);
    expect(await queries.utxo({ addresses: [f.bob.address] })).to.have.length(1);
    const again = await expectRpcRejection(submitter.submitTransaction(tx.hex));
    expect(rpcCode(again)).to.equal(3117);
    const block = f.devnet.produceBlock();
    expect(block?.transactions?.[0]?.id).to.equal(id);
    expect(await queries.utxo({ addresses: [f.bob.address] })).to.have.length(2);
    expect(await queries.ledgerTip()).to.deep.equal({ slot: block!.slot, id: block!.id });
    expect(await queries.networkBlockHeight()).to.equal(1);
    await submitter.shutdown();
    await queries.shutdown();
  });

  it("evaluates scripts: budgets for a passing redeemer, 3010 with the trace for a failing one, additionalUtxo for unknown inputs", async () => {
    const script = plutusV3(REDEEMER_IS_42_V3);
    const lockTx = buildWithMinFee((fee) => ({
      inputs: [f.genesisOf(f.alice)],
      outputs: [
        { address: scriptAddress(script), lovelace: 10_000_000n, inlineDatum: intData(0) },
        { address: f.alice.address, lovelace: GENESIS_LOVELACE - 10_000_000n - fee },
      ],
      fee,
      signers: [f.alice.sk],
    }));
    const client = await submissionClient(server);
    const lockId = await client.submitTransaction(lockTx.hex);
    const spend = (redeemer: number) =>
      buildWithMinFee((fee) => ({
        inputs: [{ txHash: lockId, index: 0 }],
        outputs: [{ address: f.bob.address, lovelace: 10_000_000n - fee }],
        fee,
        collateral: [f.genesisOf(f.bob)],
        signers: [f.bob.sk],
        plutusScripts: [script],
        redeemers: [{ tag: "spend", index: 0, data: intData(redeemer), memory: 1_000_000, cpu: 500_000_000 }],
      })).hex;
    // The locking transaction is only in the mempool: evaluation sees the mempool state.
    const result = await client.evaluateTransaction(spend(42));
    expect(result).to.have.length(1);
    expect(result[0]!.validator).to.deep.equal({ purpose: "spend", index: 0 });
    expect(result[0]!.budget.memory).to.be.greaterThan(0);
    const failure = await expectRpcRejection(client.evaluateTransaction(spend(7)));
    expect(rpcCode(failure)).to.equal(3010);
    const data = (failure.data ?? failure.error?.data) as { validator: unknown; error: { code: number; data: { traces: string[] } } }[];
    expect(data[0]!.error?.code).to.equal(3012);
    expect(data[0]!.error.data.traces).to.include("redeemer must be 42");
    // A fresh devnet does not know the locked output; additionalUtxo supplies it.
    const other = await fundedDevnet();
    const lockedUtxo = f.devnet.queryUtxo().length; // confirmed set does not include the mempool lock
    expect(lockedUtxo).to.equal(2);
    const additional = [
      {
        transaction: { id: lockId },
        index: 0,
        address: scriptAddress(script),
        value: { ada: { lovelace: 10_000_000n } },
        datum: intData(0).to_hex(),
      },
    ];
    const otherServer = await startDevnetServer(other.devnet, { port: 0 });
    const otherClient = await submissionClient(otherServer);
    const unknown = await expectRpcRejection(otherClient.evaluateTransaction(spend(42)));
    expect(rpcCode(unknown)).to.equal(3010);
    const viaAdditional = await otherClient.evaluateTransaction(spend(42), additional as never);
    expect(viaAdditional[0]!.budget).to.deep.equal(result[0]!.budget);
    await otherClient.shutdown();
    await otherServer.close();
    await other.devnet.close();
    await client.shutdown();
  });

  it("follows the chain from origin, from a later point, and through a rollback driven over the wire", async () => {
    const submitter = await submissionClient(server);
    const control = await RawSocket.open(server);
    const produce = async () =>
      (await control.call("devnet/produceBlock")).result as { block: { id: string; slot: number; height: number } };
    const first = alicePaysBob(f, 2_000_000n);
    await submitter.submitTransaction(first.hex);
    const b1 = (await produce()).block;
    const from1 = f.largestOf(f.alice);
    await submitter.submitTransaction(alicePaysBob(f, 2_000_000n, { from: from1 }).hex);
    await produce();

    type Event = { dir: "forward"; height: number; txs: number } | { dir: "backward"; point: Point | Origin };
    const follow = async (points: (Point | Origin)[]) => {
      const events: Event[] = [];
      const client = await createChainSynchronizationClient(await contextFor(server), {
        rollForward: async ({ block }, next) => {
          const b = block as Block & { height: number; transactions?: unknown[] };
          events.push({ dir: "forward", height: b.height, txs: b.transactions?.length ?? 0 });
          next();
        },
        rollBackward: async ({ point }, next) => {
          events.push({ dir: "backward", point });
          next();
        },
      });
      await client.resume(points, 10);
      return { events, client };
    };
    const fromOrigin = await follow(["origin"]);
    const fromB1 = await follow([{ slot: b1.slot, id: b1.id }]);
    await until(() => fromOrigin.events.length >= 3 && fromB1.events.length >= 2, "initial sync");
    expect(fromOrigin.events).to.deep.equal([
      { dir: "backward", point: "origin" },
      { dir: "forward", height: 1, txs: 1 },
      { dir: "forward", height: 2, txs: 1 },
    ]);
    expect(fromB1.events).to.deep.equal([
      { dir: "backward", point: { slot: b1.slot, id: b1.id } },
      { dir: "forward", height: 2, txs: 1 },
    ]);
    // Parked at the tip: a rollback of one block is announced, then the re-forged block arrives.
    const rolled = await control.call("devnet/rollback", { blocks: 1 });
    expect((rolled.result as { tip: unknown }).tip).to.deep.equal({ slot: b1.slot, id: b1.id, height: 1 });
    await until(() => fromOrigin.events.length >= 4 && fromB1.events.length >= 3, "rollback");
    expect(fromOrigin.events[3]).to.deep.equal({ dir: "backward", point: { slot: b1.slot, id: b1.id } });
    expect(fromB1.events[2]).to.deep.equal({ dir: "backward", point: { slot: b1.slot, id: b1.id } });
    expect(f.devnet.mempoolTransactions()).to.have.length(1); // the rolled-back transaction went back to the mempool
    f.clock.advanceSlots(5);
    await produce();
    await until(() => fromOrigin.events.length >= 5, "re-forged block");
    expect(fromOrigin.events[4]).to.deep.equal({ dir: "forward", height: 2, txs: 1 });
    const notFound = await control.call("findIntersection", { points: [{ slot: 99_999, id: "ab".repeat(32) }] }, "x");
    expect(notFound.error?.code).to.equal(1000);
    control.close();
    await fromOrigin.client.shutdown();
    await fromB1.client.shutdown();
    await submitter.shutdown();
  });

  it("monitors the mempool; a re-acquire waits until the mempool changes", async () => {
    const submitter = await submissionClient(server);
    const monitor = await mempoolClient(server);
    const first = alicePaysBob(f, 2_000_000n);
    const id = await submitter.submitTransaction(first.hex);
    const slot = await monitor.acquireMempool();
    expect(slot).to.equal(f.devnet.currentSlot());
    expect(await monitor.hasTransaction(id)).to.equal(true);
    expect(await monitor.hasTransaction("00".repeat(32))).to.equal(false);
    const size = await monitor.sizeOfMempool();
    expect(size.transactions.count).to.equal(1);
    const tx = await monitor.nextTransaction({ fields: "all" });
    expect(tx?.id).to.equal(id);
    expect(await monitor.nextTransaction()).to.equal(null);
    let reacquired = false;
    const waiting = monitor.acquireMempool().then(() => {
      reacquired = true;
    });
    // A round trip on another connection proves the server has seen (and parked) the re-acquire.
    await (await ledgerClient(server)).ledgerTip();
    expect(reacquired).to.equal(false);
    await submitter.submitTransaction(
      alicePaysBob(f, 2_000_000n, { from: { txHash: id, index: 1, lovelace: GENESIS_LOVELACE - 2_000_000n - first.fee } }).hex,
    );
    await waiting;
    expect(reacquired).to.equal(true);
    await monitor.releaseMempool();
    const notAcquired = await RawSocket.open(server);
    const reply = await notAcquired.call("nextTransaction", {});
    expect(reply.error?.code).to.equal(4000);
    notAcquired.close();
    await monitor.shutdown();
    await submitter.shutdown();
  });

  it("answers bad input with JSON-RPC errors and keeps serving", async () => {
    const raw = await RawSocket.open(server);
    raw.sendText("this is not json");
    expect((await raw.next()).error?.code).to.equal(-32700);
    raw.sendText("[1,2,3]");
    expect((await raw.next()).error?.code).to.equal(-32600);
    const unknown = await raw.call("queryLedgerState/nothingHere", undefined, { requestId: "a" });
    expect(unknown.error?.code).to.equal(-32601);
    expect(unknown.method).to.equal("queryLedgerState/nothingHere");
    expect(unknown.id).to.deep.equal({ requestId: "a" });
    const noMethod = await raw.call("frobnicate");
    expect(noMethod.error?.code).to.equal(-32601);
    const badParams = await raw.call("submitTransaction", { transaction: 42 });
    expect(badParams.error?.code).to.equal(-32602);
    expect(badParams.method).to.equal("submitTransaction");
    const badUtxo = await raw.call("queryLedgerState/utxo", { addresses: "nope" });
    expect(badUtxo.error?.code).to.equal(-32602);
    const badCbor = await raw.call("submitTransaction", { transaction: { cbor: "zz" } });
    expect(badCbor.error?.code).to.equal(-32602);
    raw.sendText(
      JSON.stringify({ jsonrpc: "2.0", method: "submitTransaction", params: { transaction: { cbor: "00".repeat(2_500_000) } } }),
    );
    expect((await raw.next()).error?.code).to.equal(-32600);
    const unknownPoint = await raw.call("acquireLedgerState", { point: { slot: 5, id: "cd".repeat(32) } });
    expect(unknownPoint.error?.code).to.equal(2000);
    const byron = await raw.call("queryNetwork/genesisConfiguration", { era: "byron" });
    expect(byron.error?.code).to.equal(-32602);
    const genesisUtxo = f.devnet.queryUtxo({ addresses: [f.alice.address] })[0]!;
    const overlapping = await raw.call("evaluateTransaction", {
      transaction: { cbor: alicePaysBob(f, 2_000_000n).hex },
      additionalUtxo: [genesisUtxo],
    });
    expect(overlapping.error?.code).to.equal(3002);
    const alive = await raw.call("queryNetwork/tip");
    expect(alive.result).to.equal("origin");
    raw.close();
    const controlOff = await startDevnetServer(f.devnet, { port: 0 });
    const raw2 = await RawSocket.open(controlOff);
    expect((await raw2.call("devnet/produceBlock")).error?.code).to.equal(-32601);
    raw2.close();
    await controlOff.close();
  });

  it("serves /health with a non-null lastTipUpdate", async () => {
    const response = await fetch(`http://${server.host}:${server.port}/health`);
    const health = (await response.json()) as { lastTipUpdate: string | null; currentEra: string; networkSynchronization: number };
    expect(health.lastTipUpdate).to.be.a("string");
    expect(health.currentEra).to.equal("conway");
    expect(health.networkSynchronization).to.equal(1);
    expect((await fetch(`http://${server.host}:${server.port}/nope`)).status).to.equal(404);
  });
});
