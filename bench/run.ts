// Runs every bench/<area>.bench.ts (or only those named on the command line) and prints one JSON document.
import { readdirSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith(".bench.ts"))
    .filter((f) => wanted.length === 0 || wanted.includes(f.replace(/\.bench\.ts$/, "")))
    .sort();
  const results: Record<string, unknown> = {};
  for (const file of files) {
    const mod = (await import(join(__dirname, file))) as { default: () => Promise<Record<string, unknown>> };
    const started = Date.now();
    results[file.replace(/\.bench\.ts$/, "")] = { ...(await mod.default()), wallClockMs: Date.now() - started };
  }
  const replacer = (_k: string, v: unknown) => (typeof v === "bigint" ? v.toString() : v);
  process.stdout.write(`${JSON.stringify({ machine: { node: process.version, cpus: cpus().length }, results }, replacer, 2)}\n`);
}

// Exit once the JSON is out: a benchmark may leave a client or timer behind, and `npm run bench` must end.
main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  },
);
