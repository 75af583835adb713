/**
 * `npm run build:onchain`: compiles every validator (each in a fresh process) and writes onchain/plutus.json
 * (shipped, no traces) and onchain/plutus-trace.json (rule names as traces, for debugging and rule tests).
 * `--check` compares instead of writing and exits 1 when the committed blueprints differ.
 * `--trace-only` / `--shipped-only` build one of the two (development).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { BLUEPRINT_PATH, TRACE_BLUEPRINT_PATH, buildBlueprints } from "../onchain/blueprint-build";

async function main(): Promise<void> {
  const check = process.argv.includes("--check");
  const started = Date.now();
  const built = await buildBlueprints({
    shipped: !process.argv.includes("--trace-only"),
    trace: !process.argv.includes("--shipped-only"),
  });
  const targets: [string, string][] = [];
  if (built.shipped !== undefined) targets.push([BLUEPRINT_PATH, built.shipped]);
  if (built.trace !== undefined) targets.push([TRACE_BLUEPRINT_PATH, built.trace]);
  let stale = 0;
  for (const [file, contents] of targets) {
    if (check) {
      let current = "";
      try {
        current = readFileSync(file, "utf8");
      } catch {
        /* missing counts as stale */
      }
      if (current !== contents) {
        stale++;
        process.stdout.write(`stale: ${file}\n`);
      }
    } else {
      writeFileSync(file, contents);
      process.stdout.write(`wrote ${file}\n`);
    }
  }
  for (const v of JSON.parse(built.shipped ?? built.trace ?? "{}").validators as { title: string; hash: string; compiledCode: string }[]) {
    process.stdout.write(`${v.title.padEnd(24)} ${v.hash} ${v.compiledCode.length / 2} bytes (unapplied)\n`);
  }
  process.stdout.write(`done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  if (stale > 0) process.exit(1);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
