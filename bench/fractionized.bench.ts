/**
 * The fractionized list: execution units (and their share of the per-transaction limits), transaction sizes and
 * the script size of its paths (shipped build), measured through the devnet on real CSL-built transactions; and
 * the insert-build latency over HTTP against its floor (fractionized-build.ts). `npm run bench -- fractionized`.
 */
import { measureFractionizedPaths } from "../fixtures/onchain/fractionized-figures";
import { measureInsertBuild } from "./fractionized-build";

export default async function (): Promise<Record<string, unknown>> {
  return { ...(await measureFractionizedPaths()), insertBuild: await measureInsertBuild() };
}
