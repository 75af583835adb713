/**
 * Execution units (and their share of the per-transaction limits), transaction sizes and the script size of the
 * fractionized list's paths (shipped build), measured through the devnet on real CSL-built transactions.
 * `npm run bench -- fractionized`.
 */
import { measureFractionizedPaths } from "../fixtures/onchain/fractionized-figures";

export default async function (): Promise<Record<string, unknown>> {
  return { ...(await measureFractionizedPaths()) };
}
