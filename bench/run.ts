/**
 * Runs every bench/<area>.bench.ts (or only those named on the command line) and reports their ratios.
 *
 * Absolute figures on a shared machine mean little, so a benchmark states each figure as a ratio to a ceiling or
 * floor measured in the same run (see `Ratio`), under `ratios` in the object it returns. This runner prints every
 * ratio with its figure and reference, compares it with the committed `bench/baseline.json`, and flags a ratio
 * that got worse by more than 10 % (exit code 1).
 *
 *   npm run bench [area …]                    report and compare
 *   npm run bench -- --update-baseline [area …]   rewrite the baseline entries of the areas that ran
 *   npm run bench -- --json [area …]          print the whole result document as JSON instead of the report
 */
import { readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";

/** One figure set against its ceiling (or floor) from the same run. */
export interface Ratio {
  /** figure ÷ reference */
  value: number;
  /** What the issue asks of the ratio, when it asks something. */
  target?: number;
  /** Latency-like ratios (figure ÷ floor): smaller is better. */
  lowerIsBetter?: boolean;
  /** The figure, in words with its unit ("5,073 req/s"). */
  figure?: string;
  /** The ceiling or floor it is divided by, in words ("10,244 req/s, plain node:http"). */
  reference?: string;
}

export type Baseline = Record<string, { value: number; lowerIsBetter?: boolean }>;

/** A ratio worse than its baseline by more than this fraction is flagged. */
export const REGRESSION_TOLERANCE = 0.1;

export const BASELINE_FILE = join(__dirname, "baseline.json");

/** Every `ratios` entry of a bench result, named `<area>.<ratio>` (nested results are searched too). */
export function ratiosOf(area: string, result: unknown): Record<string, Ratio> {
  const found: Record<string, Ratio> = {};
  const walk = (value: unknown, prefix: string) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return;
    for (const [k, v] of Object.entries(value)) {
      if (k === "ratios" && typeof v === "object" && v !== null) {
        for (const [name, r] of Object.entries(v)) {
          if (typeof (r as Ratio).value === "number") found[`${prefix}${name}`] = r as Ratio;
        }
      } else walk(v, `${prefix}${k}.`);
    }
  };
  walk(result, `${area}.`);
  return found;
}

/** Whether `value` is worse than `baseline` by more than the tolerance. */
export function regressed(value: number, baseline: number, lowerIsBetter = false): boolean {
  return lowerIsBetter ? value > baseline * (1 + REGRESSION_TOLERANCE) : value < baseline * (1 - REGRESSION_TOLERANCE);
}

export interface ReportLine {
  name: string;
  ratio: Ratio;
  baseline?: number;
  status: "ok" | "REGRESSED" | "new";
  meetsTarget?: boolean;
}

export function compare(ratios: Record<string, Ratio>, baseline: Baseline): ReportLine[] {
  return Object.entries(ratios).map(([name, ratio]) => {
    const base = baseline[name]?.value;
    const status = base === undefined ? "new" : regressed(ratio.value, base, ratio.lowerIsBetter) ? "REGRESSED" : "ok";
    const meetsTarget =
      ratio.target === undefined ? undefined : ratio.lowerIsBetter ? ratio.value <= ratio.target : ratio.value >= ratio.target;
    return {
      name,
      ratio,
      ...(base === undefined ? {} : { baseline: base }),
      status,
      ...(meetsTarget === undefined ? {} : { meetsTarget }),
    };
  });
}

export function formatReport(lines: ReportLine[]): string {
  const rows = lines.map((l) => [
    l.name,
    l.ratio.value.toFixed(2),
    l.ratio.target === undefined ? "" : `${l.ratio.lowerIsBetter ? "≤" : "≥"} ${l.ratio.target}${l.meetsTarget ? "" : " (missed)"}`,
    l.baseline === undefined ? "" : l.baseline.toFixed(2),
    l.status,
    [l.ratio.figure, l.ratio.reference].filter((x) => x !== undefined).join(" / "),
  ]);
  const head = ["ratio", "value", "target", "baseline", "vs baseline", "figure / ceiling or floor"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ");
  return [fmt(head), fmt(widths.map((w) => "-".repeat(w))), ...rows.map(fmt)].join("\n");
}

function readBaseline(): Baseline {
  return existsSync(BASELINE_FILE) ? (JSON.parse(readFileSync(BASELINE_FILE, "utf8")) as Baseline) : {};
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const flags = new Set(args.filter((a) => a.startsWith("--")));
  const wanted = args.filter((a) => !a.startsWith("--"));
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith(".bench.ts"))
    .filter((f) => wanted.length === 0 || wanted.includes(f.replace(/\.bench\.ts$/, "")))
    .sort();
  const results: Record<string, unknown> = {};
  for (const file of files) {
    const area = file.replace(/\.bench\.ts$/, "");
    process.stderr.write(`bench: ${area}…\n`);
    const mod = (await import(join(__dirname, file))) as { default: () => Promise<Record<string, unknown>> };
    const started = Date.now();
    results[area] = { ...(await mod.default()), wallClockMs: Date.now() - started };
  }
  const replacer = (_k: string, v: unknown) => (typeof v === "bigint" ? v.toString() : v);
  if (flags.has("--json")) {
    process.stdout.write(`${JSON.stringify({ machine: { node: process.version, cpus: cpus().length }, results }, replacer, 2)}\n`);
    return 0;
  }

  const ratios = Object.assign({}, ...Object.entries(results).map(([area, r]) => ratiosOf(area, r))) as Record<string, Ratio>;
  const baseline = readBaseline();
  const lines = compare(ratios, baseline);
  process.stdout.write(`node ${process.version}, ${cpus().length} cpus; ratios are figure ÷ ceiling (or floor) in this run\n\n`);
  process.stdout.write(`${formatReport(lines)}\n`);
  // Areas that state no ratios yet: their raw figures, so nothing measured goes unseen.
  for (const [area, r] of Object.entries(results)) {
    if (Object.keys(ratiosOf(area, r)).length === 0) process.stdout.write(`\n${area} (no ratios yet): ${JSON.stringify(r, replacer)}\n`);
  }
  if (flags.has("--update-baseline")) {
    const ran = new Set(Object.keys(results));
    const kept = Object.fromEntries(Object.entries(baseline).filter(([name]) => !ran.has(name.split(".")[0]!)));
    const fresh = Object.fromEntries(
      Object.entries(ratios).map(([name, r]) => [name, { value: r.value, ...(r.lowerIsBetter ? { lowerIsBetter: true } : {}) }]),
    );
    const next = Object.fromEntries(Object.entries({ ...kept, ...fresh }).sort(([a], [b]) => a.localeCompare(b)));
    writeFileSync(BASELINE_FILE, `${JSON.stringify(next, null, 2)}\n`);
    process.stdout.write(`\nbaseline: ${Object.keys(fresh).length} ratio(s) written to bench/baseline.json\n`);
    return 0;
  }
  const worse = lines.filter((l) => l.status === "REGRESSED");
  if (worse.length > 0) {
    process.stdout.write(
      `\n${worse.length} ratio(s) worse than bench/baseline.json by more than ${REGRESSION_TOLERANCE * 100} %: ${worse.map((l) => l.name).join(", ")}\n`,
    );
    return 1;
  }
  return 0;
}

// Exit once the report is out: a benchmark may leave a client or timer behind, and `npm run bench` must end.
if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${String(err)}\n`);
      process.exit(1);
    },
  );
}
