/**
 * Execution units (and their share of the per-transaction limits), transaction sizes and the script sizes of the
 * tokenizable list's paths and its CIP-68 metadata script (shipped build), measured through the devnet on real
 * CSL-built transactions; and the insert- and redeem-build latency over HTTP (CIP-68 list) against the floor of an
 * insert built with CSL (list-build.ts). `npm run bench -- tokenizable`.
 */
import { performance } from "node:perf_hooks";
import { measureTokenizablePaths } from "../fixtures/onchain/tokenizable-figures";
import { nodeAssetName } from "../shared/extensions/list-kit/list-tokens";
import { decodeTokenizableDatum, insertParts, TokenizableScripts, tokenizableNodeTokenName } from "../shared/extensions/tokenizable";
import { measureListBuilds, spread } from "./list-build";
import { percentile } from "./percentile";

async function measureTokenizableBuilds(): Promise<Record<string, unknown>> {
  const scripts = new TokenizableScripts(0);
  const run = await measureListBuilds(
    {
      service: "tokenizable",
      api: "/extension/tokenizable-certificate",
      scriptOf: (initRef) => scripts.of(initRef),
      terms: (key, { bob }) => ({
        certificate: { hash: key, metadata: { name: "Bench diploma", image: "ipfs://bench", description: "bench" } },
        owner: bob.paymentKeyHash,
      }),
      initConfig: { cip68ScriptAddress: scripts.metadata.hash },
      decode: decodeTokenizableDatum,
      nodeTokenName: tokenizableNodeTokenName,
      insertParts: (script, pred, key, inserter, { bob }, perByte) =>
        insertParts(script, pred, key, inserter, { owner: bob.paymentKeyHash, assetName: nodeAssetName(key) }, perByte),
    },
    20,
    async ({ build, w, policyId, keys }) => {
      // the indexer records the last block's list outputs right after the transaction itself
      await new Promise((r) => setTimeout(r, 500));
      const { bob } = w.f.actors;
      const redeems: number[] = [];
      let last = "";
      for (const key of keys.slice(0, 10)) {
        const t0 = performance.now();
        const res = await build({ type: "Redeem", address: bob.address, policyId, key });
        redeems.push(performance.now() - t0);
        last = await w.signAndSubmit(res.unsignedTransaction, [bob]);
      }
      await w.confirm(last);
      return redeems;
    },
  );
  const floorP50 = percentile([...run.floorBefore, ...run.floorAfter], 50);
  const p50 = percentile(run.inserts, 50);
  const redeemP50 = percentile(run.after, 50);
  return {
    insertBuildHttp: spread(run.inserts),
    redeemBuildHttpCip68: spread(run.after),
    floorCslInsertBuildPlusOneEvaluation: {
      beforeRun: { n: run.floorBefore.length, p50Ms: percentile(run.floorBefore, 50) },
      afterRun: { n: run.floorAfter.length, p50Ms: percentile(run.floorAfter, 50) },
    },
    ratios: {
      insertBuildP50ToFloor: {
        value: Number((p50 / floorP50).toFixed(2)),
        lowerIsBetter: true,
        figure: `${p50.toFixed(0)} ms insert build over HTTP (p50)`,
        reference: `${floorP50.toFixed(0)} ms the same insert built with CSL + one devnet evaluation (p50)`,
      },
      redeemBuildP50ToInsertFloor: {
        value: Number((redeemP50 / floorP50).toFixed(2)),
        lowerIsBetter: true,
        figure: `${redeemP50.toFixed(0)} ms CIP-68 redeem build over HTTP (p50)`,
        reference: `${floorP50.toFixed(0)} ms the insert floor (p50)`,
      },
    },
  };
}

export default async function (): Promise<Record<string, unknown>> {
  return { ...(await measureTokenizablePaths()), builds: await measureTokenizableBuilds() };
}
