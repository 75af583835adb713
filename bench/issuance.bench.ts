/**
 * `default` build latency of a one-certificate UPDATE in embedded mode (gateway → tx-builder → indexer/devnet over
 * HTTP and Ogmios, in one process), each build signed and submitted so the next one chains off the pending state
 * output; plus the floor: the same update built straight with CSL and evaluated once by the devnet (no HTTP, no
 * store, no indexer), measured before and after the HTTP run because the devnet's evaluation slows as its chain
 * grows.
 */
import { percentile } from "./percentile";
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import { buildTx } from "../shared/csl";
import { IssuanceWorld } from "../fixtures/issuance/issuance-world";
import { defaultBootstrap } from "../fixtures/onchain/protocol-fixture";

export default async function (): Promise<Record<string, unknown>> {
  const w = await IssuanceWorld.create();
  try {
    const alice = w.f.actors.alice;
    await w.f.mintBootstrap(defaultBootstrap(w.f.actors, { fee: 0n, transactionLimit: 100_000n, batchSize: 10n }));
    await w.ensureCollateral(alice);
    const cert = () => ({ hash: randomBytes(32).toString("hex"), metadata: { uv_tid: "notary" } });
    await w.issue({ address: alice.address, certificates: [cert()] }, [alice]); // the fork

    const pp = w.f.chain.devnet.protocolParameters() as never;
    const floor = async (n: number): Promise<number[]> => {
      const state = w.f.findState(w.f.findStateIdsOf(alice)[0]!);
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const spec = w.f.updateSpec(state, alice);
        const t0 = performance.now();
        const tx = buildTx({ ...spec, protocolParameters: pp });
        await w.f.chain.devnet.evaluateTransaction(tx.cborHex);
        out.push(performance.now() - t0);
      }
      return out;
    };
    const floorBefore = await floor(15);

    const N = 60;
    const latencies: number[] = [];
    let last = "";
    const started = performance.now();
    let buildMs = 0;
    for (let i = 0; i < N; i++) {
      const t0 = performance.now();
      const res = await w.build({ address: alice.address, certificates: [cert()] });
      const dt = performance.now() - t0;
      if (res.body.status.code !== "SUCCESS") throw new Error(JSON.stringify(res.body.status));
      latencies.push(dt);
      buildMs += dt;
      last = await w.signAndSubmit(res.body.unsignedTransaction!, [alice]);
      if (i % 20 === 19) w.f.chain.devnet.produceBlock();
    }
    const wallMs = performance.now() - started;
    await w.confirm(last);
    const floorAfter = await floor(15);
    const first10 = latencies.slice(0, 10);
    return {
      updateBuildHttp: {
        n: N,
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
        buildsPerSecond: Number((N / (buildMs / 1000)).toFixed(1)),
      },
      cycleBuildSignSubmitPerSecond: Number((N / (wallMs / 1000)).toFixed(1)),
      updateBuildHttpFirst10: { p50Ms: percentile(first10, 50) },
      floorCslBuildPlusOneEvaluation: {
        beforeRun: { n: floorBefore.length, p50Ms: percentile(floorBefore, 50), p99Ms: percentile(floorBefore, 99) },
        afterRun: { n: floorAfter.length, p50Ms: percentile(floorAfter, 50), p99Ms: percentile(floorAfter, 99) },
      },
      targets: { p50Ms: 30, buildsPerSecond: 50 },
    };
  } finally {
    await w.close();
  }
}

if (require.main === module) {
  void (async () => {
    const mod = module.exports as { default: () => Promise<Record<string, unknown>> };
    process.stdout.write(`${JSON.stringify(await mod.default(), null, 2)}\n`);
  })();
}
