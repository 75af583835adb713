// Devnet benchmark (run: npx tsx bench/run.ts devnet). Figures:
// - cycle: sequential query-utxo → build (shared/csl) → sign (shared/wallet) → submit → produce block, through the
//   real @cardano-ogmios/client against an in-process server (p50/p99 ms);
// - submit throughput of simple chained payments through the client, pipelined (tx/s);
// - evaluateTransaction of a three-redeemer transaction (spend + mint + withdraw) through the client (p50 ms);
// - RSS after 10,000 transactions submitted in-process (blocks of 100).
import { percentile } from "./percentile";
import * as CSL from "@emurgo/cardano-serialization-lib-nodejs";
import { buildPayment } from "../shared/csl";
import { Devnet, startDevnetServer } from "../shared/devnet";
import { generateMnemonic, Wallet } from "../shared/wallet";
import { contextFor } from "../fixtures/devnet/ogmios-client-fixture";
import { REDEEMER_IS_42_V3 } from "../fixtures/devnet/test-scripts.generated";
import { buildTx, buildWithMinFee, intData, newKey, plutusV3, scriptAddress, type TestKey } from "../fixtures/devnet/tx-fixtures";
import { createLedgerStateQueryClient, createTransactionSubmissionClient } from "@cardano-ogmios/client";

/** Chained payments: each spends the previous one's change output (valid in the mempool). */
function chainedPayments(
  payer: TestKey,
  payee: string,
  from: { txHash: string; index: number; lovelace: bigint },
  count: number,
): string[] {
  const txs: string[] = [];
  let current = from;
  for (let i = 0; i < count; i++) {
    const prev = current;
    const { hex, fee } = buildWithMinFee((fee) => ({
      inputs: [prev],
      outputs: [
        { address: payee, lovelace: 1_000_000n },
        { address: payer.address, lovelace: prev.lovelace - 1_000_000n - fee },
      ],
      fee,
      signers: [payer.sk],
    }));
    txs.push(hex);
    const id = CSL.FixedTransaction.from_hex(hex).transaction_hash().to_hex();
    current = { txHash: id, index: 1, lovelace: prev.lovelace - 1_000_000n - fee };
  }
  return txs;
}

async function cycles(count: number): Promise<{ p50: number; p99: number }> {
  const wallet = Wallet.fromMnemonic(generateMnemonic());
  const payee = newKey();
  const devnet = await Devnet.create({ genesis: [{ address: wallet.address, lovelace: 1_000_000_000_000n }] });
  const server = await startDevnetServer(devnet, { port: 0 });
  const queries = await createLedgerStateQueryClient(await contextFor(server));
  const submitter = await createTransactionSubmissionClient(await contextFor(server));
  const protocolParameters = await queries.protocolParameters();
  const times: number[] = [];
  for (let i = 0; i < count + 5; i++) {
    const started = performance.now();
    const utxos = await queries.utxo({ addresses: [wallet.address] });
    const unsigned = buildPayment({
      protocolParameters,
      utxos,
      changeAddress: wallet.address,
      outputs: [{ address: payee.address, lovelace: 2_000_000n }],
    });
    await submitter.submitTransaction(wallet.signTxFull(unsigned.cborHex));
    devnet.produceBlock();
    if (i >= 5) times.push(performance.now() - started); // the first cycles include JIT warm-up
  }
  await submitter.shutdown();
  await queries.shutdown();
  await server.close();
  await devnet.close();
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function submitThroughput(count: number): Promise<number> {
  const payer = newKey();
  const devnet = await Devnet.create({ genesis: [{ address: payer.address, lovelace: 1_000_000_000_000n }] });
  const server = await startDevnetServer(devnet, { port: 0 });
  // The client adds listeners per in-flight request; 300 pipelined submissions need more than the default 10.
  const submitter = await createTransactionSubmissionClient(await contextFor(server, count + 50));
  const genesis = devnet.queryUtxo()[0]!;
  const warm = chainedPayments(
    payer,
    newKey().address,
    { txHash: genesis.transaction.id, index: 0, lovelace: genesis.value.ada.lovelace },
    count + 20,
  );
  for (const tx of warm.slice(0, 20)) await submitter.submitTransaction(tx);
  const started = performance.now();
  await Promise.all(warm.slice(20).map((tx) => submitter.submitTransaction(tx)));
  const seconds = (performance.now() - started) / 1000;
  await submitter.shutdown();
  await server.close();
  await devnet.close();
  return Number((count / seconds).toFixed(1));
}

async function evaluateThreeRedeemers(count: number): Promise<{ p50: number; redeemers: number }> {
  const payer = newKey();
  const devnet = await Devnet.create({ genesis: [{ address: payer.address, lovelace: 1_000_000_000_000n }] });
  const server = await startDevnetServer(devnet, { port: 0 });
  const submitter = await createTransactionSubmissionClient(await contextFor(server));
  const script = plutusV3(REDEEMER_IS_42_V3);
  const hash = script.hash().to_hex();
  const genesis = devnet.queryUtxo()[0]!;
  const lock = buildWithMinFee((fee) => ({
    inputs: [{ txHash: genesis.transaction.id, index: 0 }],
    outputs: [
      { address: scriptAddress(script), lovelace: 10_000_000n, inlineDatum: intData(0) },
      { address: payer.address, lovelace: genesis.value.ada.lovelace - 10_000_000n - fee },
    ],
    fee,
    signers: [payer.sk],
  }));
  const lockId = await submitter.submitTransaction(lock.hex);
  devnet.produceBlock();
  const rewardAddress = CSL.RewardAddress.new(0, CSL.Credential.from_scripthash(script.hash())).to_address().to_bech32(undefined);
  const units = { memory: 2_000_000, cpu: 800_000_000 };
  const tx = buildTx({
    inputs: [{ txHash: lockId, index: 0 }],
    outputs: [{ address: payer.address, lovelace: 9_000_000n, assets: [{ policy: hash, name: "cafe", quantity: 1n }] }],
    fee: 1_000_000n,
    collateral: [{ txHash: lockId, index: 1 }],
    mint: [{ policy: hash, name: "cafe", quantity: 1n }],
    withdrawals: [{ rewardAddress, lovelace: 0n }],
    signers: [payer.sk],
    plutusScripts: [script],
    redeemers: [
      { tag: "spend", index: 0, data: intData(42), ...units },
      { tag: "mint", index: 0, data: intData(42), ...units },
      { tag: "reward", index: 0, data: intData(42), ...units },
    ],
  });
  const times: number[] = [];
  let redeemers = 0;
  for (let i = 0; i < count + 3; i++) {
    const started = performance.now();
    redeemers = (await submitter.evaluateTransaction(tx)).length;
    if (i >= 3) times.push(performance.now() - started);
  }
  await submitter.shutdown();
  await server.close();
  await devnet.close();
  return { p50: percentile(times, 50), redeemers };
}

async function rssAfter(transactions: number): Promise<{ rssMb: number; heapUsedMb: number; inProcessTxPerSecond: number }> {
  const payer = newKey();
  const devnet = await Devnet.create({ genesis: [{ address: payer.address, lovelace: 100_000_000_000_000n }] });
  const genesis = devnet.queryUtxo()[0]!;
  let from = { txHash: genesis.transaction.id, index: 0, lovelace: genesis.value.ada.lovelace };
  const payee = newKey().address;
  let submitMs = 0;
  for (let done = 0; done < transactions; done += 100) {
    const batch = chainedPayments(payer, payee, from, 100);
    const started = performance.now();
    for (const tx of batch) await devnet.submitTransaction(tx);
    submitMs += performance.now() - started;
    devnet.produceBlock();
    const change = devnet.queryUtxo({ addresses: [payer.address] })[0]!;
    from = { txHash: change.transaction.id, index: change.index, lovelace: change.value.ada.lovelace };
  }
  global.gc?.();
  const memory = process.memoryUsage();
  const rssMb = Number((memory.rss / 1024 / 1024).toFixed(1));
  const heapUsedMb = Number((memory.heapUsed / 1024 / 1024).toFixed(1));
  await devnet.close();
  return { rssMb, heapUsedMb, inProcessTxPerSecond: Number((transactions / (submitMs / 1000)).toFixed(1)) };
}

/** Runs one phase, reporting its wall time on stderr (the JSON result goes to stdout). */
async function phase<T>(name: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await run();
  process.stderr.write(`devnet bench: ${name} took ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return result;
}

export default async function (): Promise<Record<string, unknown>> {
  const transactions = Number(process.env.DEVNET_BENCH_TRANSACTIONS ?? 10_000);
  const cycle = await phase("cycles", () => cycles(50));
  const throughput = await phase("submit throughput", () => submitThroughput(300));
  const evaluation = await phase("evaluate", () => evaluateThreeRedeemers(30));
  const memory = await phase(`rss after ${transactions} transactions`, () => rssAfter(transactions));
  return {
    cycleQueryBuildSignSubmitBlockMs: cycle,
    submitThroughputTxPerSecond: throughput,
    submitThroughputTarget: ">= 100 tx/s",
    evaluateThreeRedeemersP50Ms: evaluation.p50,
    evaluateRedeemersReturned: evaluation.redeemers,
    evaluateTarget: "<= 20 ms",
    rssMbAfterTransactions: memory.rssMb,
    heapUsedMbAfterTransactions: memory.heapUsedMb,
    transactionsForRss: transactions,
    inProcessSubmitTxPerSecond: memory.inProcessTxPerSecond,
  };
}
