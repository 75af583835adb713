/**
 * The fractionized list: execution units (and their share of the per-transaction limits), transaction sizes and
 * the script size of its paths (shipped build), measured through the devnet on real CSL-built transactions; and
 * the insert-build latency over HTTP against its floor (list-build.ts). `npm run bench -- fractionized`.
 */
import { measureFractionizedPaths } from "../fixtures/onchain/fractionized-figures";
import { decodeFractionizedDatum, FractionizedScripts, fractionizedNodeTokenName, insertParts } from "../shared/extensions/fractionized";
import { nodeAssetName } from "../shared/extensions/list-kit/list-tokens";
import { measureListBuilds, spread } from "./list-build";
import { percentile } from "./percentile";

async function measureInsertBuild(): Promise<Record<string, unknown>> {
  const scripts = new FractionizedScripts(0);
  const run = await measureListBuilds(
    {
      service: "fractionized",
      api: "/extension/fractionized-certificate",
      scriptOf: (initRef) => scripts.of(initRef),
      terms: (key) => ({ certificate: { hash: key, metadata: { uv_tid: "bench" } }, tokenAmount: 10, claimants: [] }),
      decode: decodeFractionizedDatum,
      nodeTokenName: fractionizedNodeTokenName,
      insertParts: (script, pred, key, inserter, _actors, perByte) =>
        insertParts(script, pred, key, inserter, { totalAmount: 10n, claimants: [], assetName: nodeAssetName(key) }, perByte),
    },
    30,
    async () => undefined,
  );
  const p50 = percentile(run.inserts, 50);
  return {
    insertBuildHttp: spread(run.inserts),
    floorCslBuildPlusOneEvaluation: {
      beforeRun: { n: run.floorBefore.length, p50Ms: percentile(run.floorBefore, 50) },
      afterRun: { n: run.floorAfter.length, p50Ms: percentile(run.floorAfter, 50) },
    },
    ratioP50ToFloor: Number((p50 / percentile([...run.floorBefore, ...run.floorAfter], 50)).toFixed(2)),
  };
}

export default async function (): Promise<Record<string, unknown>> {
  return { ...(await measureFractionizedPaths()), insertBuild: await measureInsertBuild() };
}
