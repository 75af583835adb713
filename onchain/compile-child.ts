/**
 * Child-process entry: compiles ONE validator and prints `{ name, trace, compiledCode }` as JSON on stdout.
 * One process per validator keeps plu-ts output independent of compile order (docs/protocol.md#plu-ts-pitfalls, 3).
 * Usage: node --require tsx/cjs onchain/compile-child.ts <validator name, see validator-names.ts> [--trace]
 */
import { compileValidator } from "./compile";
import { VALIDATOR_NAMES, type ValidatorName } from "./validator-names";

const name = process.argv[2] as ValidatorName;
if (!VALIDATOR_NAMES.includes(name)) {
  process.stderr.write(`unknown validator ${String(name)}; expected one of ${VALIDATOR_NAMES.join(", ")}\n`);
  process.exit(2);
}
process.stdout.write(JSON.stringify(compileValidator(name, { trace: process.argv.includes("--trace") })) + "\n");
