/**
 * Execution units (and their share of the per-transaction limits), transaction sizes and the script sizes of the
 * tokenizable list's paths and its CIP-68 metadata script (shipped build), measured through the devnet on real
 * CSL-built transactions; and the insert- and redeem-build latency over HTTP against the floor of an insert
 * built with CSL (tokenizable-build.ts). `npm run bench -- tokenizable`.
 */
import { measureTokenizablePaths } from "../fixtures/onchain/tokenizable-figures";
import { measureTokenizableBuilds } from "./tokenizable-build";

export default async function (): Promise<Record<string, unknown>> {
  return { ...(await measureTokenizablePaths()), builds: await measureTokenizableBuilds() };
}
