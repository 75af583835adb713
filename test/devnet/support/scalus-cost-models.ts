// Reads the Plutus cost models that scalus 0.17.0 applies (its built-in mainnet protocol parameters) straight out
// of the scalus bundle. The devnet advertises the numbers generated from this (shared/devnet/scalus-cost-models.json);
// a test re-extracts and compares, so a scalus upgrade that changes the models cannot drift silently.
// Regenerate: npx tsx test/devnet/support/scalus-cost-models.ts > shared/devnet/scalus-cost-models.json
import { readFileSync } from "node:fs";

/** The V1, V2 and V3 cost models embedded in scalus.js (Scala Longs stored as int32 low/high pairs). */
export function extractScalusCostModels(): { v1: number[]; v2: number[]; v3: number[] } {
  const source = readFileSync(require.resolve("scalus"), "utf8");
  const literals = [...source.matchAll(/new Int32Array\(\[(100788,0,420,[^\]]*)\]\)/g)].map((m) => m[1] ?? "");
  if (literals.length !== 3) throw new Error(`expected 3 cost-model literals in scalus.js, found ${literals.length}`);
  const [v1, v2, v3] = literals.map((literal) => {
    const words = literal.split(",").map((w) => Number(w));
    const values: number[] = [];
    for (let i = 0; i < words.length; i += 2) values.push((words[i + 1] ?? 0) * 4294967296 + ((words[i] ?? 0) >>> 0));
    return values;
  }) as [number[], number[], number[]];
  return { v1, v2, v3 };
}

if (require.main === module) {
  const { v1, v2, v3 } = extractScalusCostModels();
  process.stdout.write(`${JSON.stringify({ v1, v2, v3 })}\n`);
}
