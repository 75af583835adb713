/**
 * Builds the CIP-57 blueprints (onchain/plutus.json, and the trace build onchain/plutus-trace.json) by compiling
 * every validator in its own fresh child process. Deterministic: same sources and lockfile → same bytes.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { plutusScriptHash } from "../shared/csl/plutus-script";
import { DEFINITIONS, VALIDATOR_SPECS } from "./blueprint-schema";
import { VALIDATOR_NAMES, type ValidatorName } from "./validator-names";

export const BLUEPRINT_PATH = path.join(__dirname, "plutus.json");
export const TRACE_BLUEPRINT_PATH = path.join(__dirname, "plutus-trace.json");

interface ChildResult {
  name: ValidatorName;
  trace: boolean;
  compiledCode: string;
}

function compileInChild(name: ValidatorName, trace: boolean): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const args = ["--require", "tsx/cjs", path.join(__dirname, "compile-child.ts"), name, ...(trace ? ["--trace"] : [])];
    const child = spawn(process.execPath, args, { cwd: path.join(__dirname, ".."), stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (err += b.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`compiling ${name} failed (exit ${code}): ${err.trim()}`));
      resolve(JSON.parse(out.trim()) as ChildResult);
    });
  });
}

/** Runs `jobs` with at most `limit` in flight, keeping the input order in the result. */
async function inPool<T>(jobs: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return results;
}

function scriptHashOf(compiledCode: string): string {
  return plutusScriptHash(compiledCode, "plutus:v3");
}

function blueprintOf(compiled: ChildResult[], trace: boolean): string {
  const validators = compiled.flatMap((c) => {
    const spec = VALIDATOR_SPECS[c.name];
    const hash = scriptHashOf(c.compiledCode);
    return spec.handlers.map((h) => ({
      title: h.title,
      description: h.description,
      ...(h.datum ? { datum: h.datum } : {}),
      redeemer: h.redeemer,
      parameters: spec.parameters,
      compiledCode: c.compiledCode,
      hash,
    }));
  });
  const blueprint = {
    preamble: {
      title: "cert-anchor/onchain",
      description: trace
        ? "Trace build (rule names kept as traces) — for debugging and rule tests, never deploy"
        : "Proxy, state and library validators of the certificate anchoring protocol, and its extensions' validators",
      version: "0.1.0",
      plutusVersion: "v3",
      compiler: { name: "plu-ts", version: "0.9.0" },
      license: "UNLICENSED",
    },
    validators,
    definitions: DEFINITIONS,
  };
  return JSON.stringify(blueprint, null, 2) + "\n";
}

export interface BuiltBlueprints {
  /** onchain/plutus.json contents (shipped, no traces) */
  readonly shipped?: string;
  /** onchain/plutus-trace.json contents */
  readonly trace?: string;
}

/** Compiles every validator of the chosen builds, each in its own process, `parallel` at a time. */
export async function buildBlueprints(opts: { shipped?: boolean; trace?: boolean; parallel?: number } = {}): Promise<BuiltBlueprints> {
  const builds = [...(opts.shipped !== false ? [false] : []), ...(opts.trace !== false ? [true] : [])];
  const jobs = builds.flatMap((trace) => VALIDATOR_NAMES.map((name) => () => compileInChild(name, trace)));
  const results = await inPool(jobs, opts.parallel ?? 2);
  const shipped = results.filter((r) => !r.trace);
  const trace = results.filter((r) => r.trace);
  return {
    ...(shipped.length > 0 ? { shipped: blueprintOf(shipped, false) } : {}),
    ...(trace.length > 0 ? { trace: blueprintOf(trace, true) } : {}),
  };
}
