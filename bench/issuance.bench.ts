/**
 * Issuance figures of a one-certificate `default` UPDATE in embedded mode (gateway → tx-builder → indexer/devnet
 * over HTTP and Ogmios, in one process), each build signed and submitted so the next one chains off the pending
 * state output:
 * - the floor: the same update built straight with CSL and evaluated once by the devnet (no HTTP, no store, no
 *   indexer), for a wallet idle at the time: before the runs, alternating with the single-wallet builds (so bursts
 *   of load from other work hit both), and after the runs (the devnet's evaluation slows as its chain grows);
 * - one wallet building back to back over HTTP (p50 ÷ floor p50 over all floor samples, target ≤ 1.3);
 * - 8 wallets building concurrently (each build → sign → submit → next build, a block every 40 submissions):
 *   builds/s over the wall time of the run, against the target of 60 builds/s; stated as a ratio to the floor's
 *   one-at-a-time rate (1000 ÷ floor p50), with the target converted the same way;
 * - the CPU each build costs (this process's CPU time over the run, all threads: service, devnet and its
 *   evaluator workers, load generator; over NATS per process from /proc), and the rate the machine's cores could
 *   sustain at that cost (cores × 1000 ÷ CPU ms per build): the ceiling the throughput targets are held against.
 */
import { percentile } from "./percentile";
import { performance } from "node:perf_hooks";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { randomBytes } from "node:crypto";
import { buildTx } from "../shared/csl";
import { IssuanceWorld } from "../fixtures/issuance/issuance-world";
import { defaultBootstrap } from "../fixtures/onchain/protocol-fixture";
import { Wallet, generateMnemonic } from "../shared/wallet";
import { postJson } from "../fixtures/mesh/helpers";
import { IssuingWallet } from "../fixtures/faults/issuing-wallet";
import { natsServerAvailable } from "../fixtures/processes/nats-server";
import { DistributedSystem } from "../fixtures/faults/distributed-system";

const SINGLE_BUILDS = 40;
const WALLETS = 8;
const BUILDS_PER_WALLET = 15;
const TARGET_CONCURRENT_PER_SECOND = 60;
const TARGET_SINGLE_TO_FLOOR = 1.3;
const TARGET_TWO_REPLICAS_PER_SECOND = 100;

const CORES = availableParallelism();
/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

/** CPU ms (user + system, all threads) a process has used so far, from /proc; this process by cpuUsage. */
function cpuMsOf(pid?: number): number {
  if (pid === undefined || pid === process.pid) {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // fields[0] is the state (3rd field of the line): utime and stime are the 14th and 15th
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
}

/** CPU ms per build of each named process between `start()` and `stop(builds)`. */
function cpuMeter(pids: Record<string, number | undefined>): { stop(builds: number): Record<string, number> } {
  const at = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuMsOf(pid)]));
  return {
    stop(builds) {
      const per = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, Number(((cpuMsOf(pid) - at[k]!) / builds).toFixed(1))]));
      return {
        ...per,
        total: Number(
          Object.values(per)
            .reduce((a, b) => a + b, 0)
            .toFixed(1),
        ),
      };
    },
  };
}

/** The build rate the machine's cores could sustain at `cpuMsPerBuild`, nothing else running. */
const cpuCeiling = (cpuMsPerBuild: number): number => Number(((CORES * 1000) / cpuMsPerBuild).toFixed(1));

/**
 * 8 wallets building concurrently through the gateway and two tx-builder replicas over a real nats-server (the
 * fault campaign's system: gateway and read side in their own processes, the devnet in its own producing a block
 * every 200 ms, the two replicas as brokers of this process on one shared store). Each wallet first lands its fork,
 * then builds, signs and submits back to back; a 409 (its state output still settling) is retried and counted.
 */
async function twoReplicasOverNats(): Promise<{
  buildsPerSecond: number;
  builds: number;
  conflicts: number;
  wallMs: number;
  buildP50Ms: number;
  replicas: Record<string, number>;
  cpuMsPerBuild: Record<string, number>;
  cpuCeilingBuildsPerSecond: number;
}> {
  const sys = new DistributedSystem();
  try {
    await sys.startInfrastructure();
    await Promise.all([
      sys.start("gateway", "gateway"),
      sys.start("reader", "indexer,verifier,library,user-state,credential,stats"),
      sys.startBuilderReplicas(),
    ]);
    await sys.deploy();
    const wallets = Array.from({ length: WALLETS }, () => Wallet.fromMnemonic(generateMnemonic()));
    await sys.fund(wallets, 2_000_000_000n);
    const clients = wallets.map((wallet) => new IssuingWallet({ api: () => sys.api, wallet, retryMs: 100, confirmPollMs: 100 }));
    await Promise.all(clients.map(async (c, k) => (await c.ensureCollateral(), await c.issue(`fork-${k}`))));
    for (const k of Object.keys(sys.buildsServed)) delete sys.buildsServed[k];

    const latencies: number[] = [];
    let conflicts = 0;
    const cpu = cpuMeter({
      replicasAndLoadGenerator: process.pid,
      gateway: sys.procs.get("gateway")?.proc.child.pid,
      reader: sys.procs.get("reader")?.proc.child.pid,
      devnet: sys.devnet.child.pid,
      natsServer: sys.nats.child.pid,
    });
    const started = performance.now();
    await Promise.all(
      wallets.map(async (x, k) => {
        for (let i = 0; i < BUILDS_PER_WALLET;) {
          const t0 = performance.now();
          const res = await postJson(`${sys.api}/transaction/build`, {
            type: "default",
            address: x.address,
            certificates: [{ hash: randomBytes(32).toString("hex"), algorithm: "SHA-256", metadata: { uv_tid: "notary" } }],
          });
          if (res.status === 409) {
            conflicts++;
            await new Promise((r) => setTimeout(r, 50));
            continue;
          }
          const tx = (res.json as { unsignedTransaction?: string }).unsignedTransaction;
          if (res.status !== 200 || !tx) throw new Error(`wallet ${k}: build ${res.status} ${res.text.slice(0, 300)}`);
          latencies.push(performance.now() - t0);
          const sub = await postJson(`${sys.api}/transaction/submit`, { transaction: tx, witnessSet: x.signTx(tx) });
          if (sub.status !== 200) throw new Error(`wallet ${k}: submit ${sub.status} ${sub.text.slice(0, 300)}`);
          i++;
        }
      }),
    );
    const wallMs = performance.now() - started;
    const cpuMsPerBuild = cpu.stop(WALLETS * BUILDS_PER_WALLET);
    return {
      buildsPerSecond: Number(((WALLETS * BUILDS_PER_WALLET) / (wallMs / 1000)).toFixed(1)),
      builds: WALLETS * BUILDS_PER_WALLET,
      conflicts,
      wallMs: Math.round(wallMs),
      buildP50Ms: percentile(latencies, 50),
      replicas: { ...sys.buildsServed },
      cpuMsPerBuild,
      cpuCeilingBuildsPerSecond: cpuCeiling(cpuMsPerBuild.total!),
    };
  } finally {
    await sys.stop();
  }
}

export default async function (): Promise<Record<string, unknown>> {
  if (!natsServerAvailable()) throw new Error("nats-server is not installed: the two-replica figure cannot be measured");
  const w = await IssuanceWorld.create();
  let closed = false;
  try {
    const alice = w.f.actors.alice;
    await w.f.mintBootstrap(defaultBootstrap(w.f.actors, { fee: 0n, transactionLimit: 100_000n, batchSize: 10n }));
    await w.ensureCollateral(alice);
    const cert = () => ({ hash: randomBytes(32).toString("hex"), metadata: { uv_tid: "notary" } });
    await w.issue({ address: alice.address, certificates: [cert()] }, [alice]); // the fork

    // 8 more wallets, each paid a spending output and a collateral output by alice, each with its own fork.
    const wallets = Array.from({ length: WALLETS }, () => Wallet.fromMnemonic(generateMnemonic()));
    await w.f.chain.submit(
      {
        utxos: w.f.chain.utxosAt(alice.address),
        changeAddress: alice.address,
        outputs: wallets.flatMap((x) => [
          { address: x.address, lovelace: 2_000_000_000n },
          { address: x.address, lovelace: 5_000_000n },
        ]),
      },
      [alice],
    );
    w.f.chain.devnet.produceBlock();
    for (const x of wallets) await w.issue({ address: x.address, certificates: [cert()] }, [x]);

    const pp = w.f.chain.devnet.protocolParameters() as never;
    // The floor builds for a wallet idle at the time (its state confirmed), so it never races the HTTP builds.
    const floorWallet = wallets[0]!;
    const floor = async (n: number): Promise<number[]> => {
      const state = w.f.findState(w.f.findStateIdsOf(floorWallet)[0]!);
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const spec = w.f.updateSpec(state, floorWallet);
        const t0 = performance.now();
        const tx = buildTx({ ...spec, protocolParameters: pp });
        await w.f.chain.devnet.evaluateTransaction(tx.cborHex);
        out.push(performance.now() - t0);
      }
      return out;
    };
    const floorBefore = await floor(15);

    // One wallet, back to back, each build alternating with a floor sample so load from other work hits both.
    const latencies: number[] = [];
    const floorDuring: number[] = [];
    let last = "";
    for (let i = 0; i < SINGLE_BUILDS; i++) {
      floorDuring.push(...(await floor(1)));
      const t0 = performance.now();
      const res = await w.build({ address: alice.address, certificates: [cert()] });
      const dt = performance.now() - t0;
      if (res.body.status.code !== "SUCCESS") throw new Error(JSON.stringify(res.body.status));
      latencies.push(dt);
      last = await w.signAndSubmit(res.body.unsignedTransaction!, [alice]);
      if (i % 20 === 19) w.f.chain.devnet.produceBlock();
    }
    await w.confirm(last);

    // Eight wallets at once.
    const concurrentLatencies: number[] = [];
    let submitted = 0;
    const lastOf: string[] = [];
    const cpu = cpuMeter({ process: process.pid });
    const started = performance.now();
    await Promise.all(
      wallets.map(async (x, k) => {
        for (let i = 0; i < BUILDS_PER_WALLET; i++) {
          const t0 = performance.now();
          const res = await w.build({ address: x.address, certificates: [cert()] });
          concurrentLatencies.push(performance.now() - t0);
          if (res.body.status.code !== "SUCCESS") throw new Error(`wallet ${k}: ${JSON.stringify(res.body.status)}`);
          lastOf[k] = await w.signAndSubmit(res.body.unsignedTransaction!, [x]);
          if (++submitted % 40 === 0) w.f.chain.devnet.produceBlock();
        }
      }),
    );
    const concurrentMs = performance.now() - started;
    const concurrentCpuMs = cpu.stop(WALLETS * BUILDS_PER_WALLET).total!;
    for (const txId of lastOf) await w.confirm(txId);
    const floorAfter = await floor(15);

    const floorP50 = percentile([...floorBefore, ...floorDuring, ...floorAfter], 50);
    const singleP50 = percentile(latencies, 50);
    const concurrentBuilds = WALLETS * BUILDS_PER_WALLET;
    const concurrentPerSecond = concurrentBuilds / (concurrentMs / 1000);
    const floorRate = 1000 / floorP50;
    const r2 = (x: number) => Number(x.toFixed(2));
    await w.close();
    closed = true;
    const nats = await twoReplicasOverNats();
    return {
      singleWallet: { n: SINGLE_BUILDS, p50Ms: singleP50, p99Ms: percentile(latencies, 99) },
      concurrent: {
        wallets: WALLETS,
        builds: concurrentBuilds,
        wallMs: Math.round(concurrentMs),
        buildsPerSecond: Number(concurrentPerSecond.toFixed(1)),
        buildP50Ms: percentile(concurrentLatencies, 50),
        buildP99Ms: percentile(concurrentLatencies, 99),
        cpuMsPerBuild: concurrentCpuMs,
        cpuCeilingBuildsPerSecond: cpuCeiling(concurrentCpuMs),
      },
      twoReplicasOverNats: nats,
      floorCslBuildPlusOneEvaluation: {
        p50Ms: floorP50,
        alternatingWithSingleWallet: { n: floorDuring.length, p50Ms: percentile(floorDuring, 50) },
        beforeRun: { n: floorBefore.length, p50Ms: percentile(floorBefore, 50), p99Ms: percentile(floorBefore, 99) },
        afterRun: { n: floorAfter.length, p50Ms: percentile(floorAfter, 50), p99Ms: percentile(floorAfter, 99) },
      },
      ratios: {
        singleWalletP50ToFloor: {
          value: r2(singleP50 / floorP50),
          target: TARGET_SINGLE_TO_FLOOR,
          lowerIsBetter: true,
          figure: `${singleP50.toFixed(1)} ms p50, one wallet over HTTP`,
          reference: `${floorP50.toFixed(1)} ms p50, CSL build + one devnet evaluation`,
        },
        concurrent8ToFloorRate: {
          value: r2(concurrentPerSecond / floorRate),
          target: r2(TARGET_CONCURRENT_PER_SECOND / floorRate),
          figure: `${concurrentPerSecond.toFixed(1)} builds/s, ${WALLETS} wallets in one process (target ${TARGET_CONCURRENT_PER_SECOND})`,
          reference: `${floorRate.toFixed(1)} builds/s, 1000 ÷ floor p50`,
        },
        concurrent8TwoReplicasToFloorRate: {
          value: r2(nats.buildsPerSecond / floorRate),
          target: r2(TARGET_TWO_REPLICAS_PER_SECOND / floorRate),
          figure: `${nats.buildsPerSecond} builds/s, ${WALLETS} wallets, two tx-builder replicas over NATS (target ${TARGET_TWO_REPLICAS_PER_SECOND})`,
          reference: `${floorRate.toFixed(1)} builds/s, 1000 ÷ floor p50`,
        },
        concurrent8ToCpuCeiling: {
          value: r2(concurrentPerSecond / cpuCeiling(concurrentCpuMs)),
          figure: `${concurrentPerSecond.toFixed(1)} builds/s, ${WALLETS} wallets in one process`,
          reference: `${cpuCeiling(concurrentCpuMs)} builds/s, ${CORES} cores ÷ ${concurrentCpuMs} CPU ms per build (service, devnet, load generator)`,
        },
        concurrent8TwoReplicasToCpuCeiling: {
          value: r2(nats.buildsPerSecond / nats.cpuCeilingBuildsPerSecond),
          figure: `${nats.buildsPerSecond} builds/s, two tx-builder replicas over NATS`,
          reference: `${nats.cpuCeilingBuildsPerSecond} builds/s, ${CORES} cores ÷ ${nats.cpuMsPerBuild.total} CPU ms per build over every process`,
        },
      },
    };
  } finally {
    if (!closed) await w.close();
  }
}

if (require.main === module) {
  void (async () => {
    const mod = module.exports as { default: () => Promise<Record<string, unknown>> };
    process.stdout.write(`${JSON.stringify(await mod.default(), null, 2)}\n`);
  })();
}
