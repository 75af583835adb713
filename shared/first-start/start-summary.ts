/**
 * What `npm start` tells its operator once the services run: the mode, where each server listens, the store and
 * chain it opened, and what the devnet bootstrap did; then whether it is ready. One summary, two renderings: lines
 * for a person on a terminal, and, when stdout is piped or collected, one JSON record each (the log stays JSON
 * lines only).
 */
import type { DeploymentStepReport } from "./protocol-deployment";

export interface StartSummary {
  /** "embedded (single process)" or "scale (NATS)" */
  mode: string;
  services: readonly string[];
  /** services whose routes answer 501 */
  notBuilt: readonly string[];
  /** `http://host:port/api/v1` */
  api?: string;
  openapi?: string;
  probes?: { live: string; ready: string };
  metrics?: string;
  store?: { kind: string; dataDir?: string };
  chain?: { network: string; devnet: boolean; ogmiosUrl: string };
  bootstrap?: DevnetBootstrapSummary;
}

/** The embedded devnet's first-start deployment, as far as this start went. */
export type DevnetBootstrapSummary =
  | { outcome: "waits"; reason: string }
  | { outcome: "skipped"; reason: string }
  | {
      outcome: "done" | "failed";
      serviceWallet: { address: string; paymentKeyHash: string; keySource: string };
      steps: readonly DeploymentStepReport[];
      deployment?: { proxyTxHash: string; proxyOutputIndex: number; serviceKeyHash: string };
      error?: string;
    };

export interface ReadySummary {
  /** readiness checks still failing after the wait (none: ready) */
  failing: readonly string[];
  api?: string;
  /** the web pages' URL a browser can open */
  pages?: string;
}

/** The banner's lines, for a terminal. */
export function summaryLines(s: StartSummary): string[] {
  const lines = [`mode: ${s.mode}; services: ${s.services.join(", ") || "none"}`];
  if (s.notBuilt.length > 0) lines.push(`not built yet (their routes answer 501): ${s.notBuilt.join(", ")}`);
  if (s.api) lines.push(`API listening on ${s.api} (OpenAPI: ${s.openapi})`);
  if (s.probes) lines.push(`probes on ${s.probes.live} and ${s.probes.ready}`);
  if (s.metrics) lines.push(`metrics on ${s.metrics}`);
  if (s.store) lines.push(`store: ${s.store.kind}${s.store.dataDir !== undefined ? ` under ${s.store.dataDir}` : ""}`);
  if (s.chain) lines.push(`chain: ${s.chain.network} via ${s.chain.devnet ? "embedded devnet " : ""}${s.chain.ogmiosUrl}`);
  const b = s.bootstrap;
  if (b === undefined) return lines;
  if ("reason" in b) lines.push(`devnet bootstrap ${b.outcome}: ${b.reason}`);
  else {
    const w = b.serviceWallet;
    lines.push(`service wallet ${w.address} (key hash ${w.paymentKeyHash}) from ${w.keySource}`);
    lines.push(...b.steps.map(describeStep));
    if (b.deployment) {
      const d = b.deployment;
      lines.push(
        `deployment: PROXY_TX_HASH=${d.proxyTxHash} PROXY_OUTPUT_INDEX=${d.proxyOutputIndex} SERVICE_KEY_HASH=${d.serviceKeyHash}`,
      );
    }
    if (b.error !== undefined) lines.push(`devnet bootstrap FAILED (the API still runs; restart to retry): ${b.error}`);
  }
  return lines;
}

/** The lines after the readiness wait: ready or not, and where a person goes next. */
export function readyLines(r: ReadySummary): string[] {
  const lines = [readyMessage(r)];
  if (r.pages) lines.push(`open ${r.pages} in a browser to verify and issue certificates`);
  return lines;
}

/** A start-up record: its level (warn when something needs the operator), facts and message. */
export interface StartRecord {
  level: "info" | "warn";
  facts: Record<string, unknown>;
  msg: string;
}

/** The banner as one log record: its facts, and a message that says what happened. */
export function summaryRecord(s: StartSummary): StartRecord {
  const facts: Record<string, unknown> = { ...s };
  if (s.bootstrap?.outcome === "failed")
    return { level: "warn", facts, msg: `started: ${s.mode}; the devnet bootstrap FAILED (restart to retry): ${s.bootstrap.error}` };
  return { level: "info", facts, msg: `started: ${s.mode}${s.api ? `; API on ${s.api}` : ""}` };
}

/** The readiness outcome as one log record. */
export function readyRecord(r: ReadySummary): StartRecord {
  return { level: r.failing.length === 0 ? "info" : "warn", facts: { ready: r.failing.length === 0, ...r }, msg: readyMessage(r) };
}

function readyMessage(r: ReadySummary): string {
  return r.failing.length === 0
    ? `ready: ${r.api ?? "the services"} ${r.api ? "answers" : "answer"} requests`
    : `not ready yet (${r.failing.join(", ")}); /ready answers 503 until these pass`;
}

function describeStep(s: DeploymentStepReport): string {
  return s.outcome === "skipped"
    ? `bootstrap ${s.step}: ${s.detail}`
    : `bootstrap ${s.step}: ${s.detail} in tx ${s.transactionHash} (${s.ms} ms)`;
}
