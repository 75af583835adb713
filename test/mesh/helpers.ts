/** Test helpers for the mesh: a gateway broker on port 0, a controllable clock, HTTP polling (never sleeps). */
import { randomUUID } from "node:crypto";
import { ServiceBroker, type ServiceSchema } from "moleculer";
import { createBrokerOptions } from "../../moleculer.config";
import { createGatewayService, gatewayOptionsFromConfig } from "../../services/gateway.service";
import { loadConfig, type AppConfig } from "../../shared/mesh/config";
import { httpUrl, listenAddresses } from "../../shared/mesh/listen-addresses";
import { ROUTES, type RouteSpec } from "../../shared/mesh/routes";

/** Free ports, no logs, no rate limit, no metrics server: each test turns on what it checks. */
export const TEST_ENV: Record<string, string> = {
  PORT: "0",
  HEALTH_PORT: "0",
  METRICS_PORT: "0",
  ENABLE_METRICS: "false",
  LOG_LEVEL: "silent",
  RATE_LIMIT_POST_PER_MINUTE: "0",
};

export function testConfig(env: Record<string, string> = {}): AppConfig {
  return loadConfig({ ...TEST_ENV, ...env });
}

export class FakeClock {
  constructor(public ms = 1_800_000_000_000) {}
  readonly now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface RunningGateway {
  broker: ServiceBroker;
  config: AppConfig;
  /** `http://127.0.0.1:<port>/api/v1` */
  api: string;
  stop(): Promise<void>;
}

export interface GatewayTestOptions {
  env?: Record<string, string>;
  routes?: readonly RouteSpec[];
  services?: ServiceSchema[];
  now?: () => number;
  readyDelayMs?: number;
  nodeID?: string;
}

/** Starts a broker with the gateway (and extra services) from the real config path, on free ports. */
export async function startGateway(opts: GatewayTestOptions = {}): Promise<RunningGateway> {
  const config = testConfig({ NAMESPACE: `mesh-${randomUUID()}`, ...opts.env });
  const now = opts.now ?? Date.now;
  const broker = new ServiceBroker(
    createBrokerOptions(config, {
      now,
      ...(opts.readyDelayMs !== undefined ? { readyDelayMs: opts.readyDelayMs } : {}),
      overrides: { skipProcessEventRegistration: true, ...(opts.nodeID ? { nodeID: opts.nodeID } : {}) },
    }),
  );
  broker.createService(createGatewayService({ ...gatewayOptionsFromConfig(config, now), routes: opts.routes ?? ROUTES }));
  for (const s of opts.services ?? []) broker.createService(s);
  await broker.start();
  const api = listenAddresses(broker).api;
  if (api === null) throw new Error("gateway is not listening");
  return { broker, config, api: httpUrl(api, "/api/v1"), stop: () => broker.stop() };
}

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export async function http(url: string, init: RequestInit = {}): Promise<HttpResult> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export const postJson = (url: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpResult> =>
  http(url, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });

/** Retries `probe` until it returns a value (not undefined); the short pause is a poll interval, not a sleep-for-state. */
export async function pollUntil<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${lastError ? `: ${String(lastError)}` : ""}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Error body shape of decisions.md. */
export function errorBody(result: HttpResult): { error: string; message: string; [k: string]: unknown } {
  const b = result.json as { error?: unknown; message?: unknown } | undefined;
  if (typeof b?.error !== "string" || typeof b.message !== "string" || b.message === "") {
    throw new Error(`not a JSON error body (status ${result.status}): ${result.text}`);
  }
  return b as { error: string; message: string };
}
