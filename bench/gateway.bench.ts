/**
 * Gateway figures on this machine (load generator on the same cores, so read them as relative):
 * time from broker creation to the first answered request, and autocannon throughput/latency for a gateway
 * action, a 501 route (error writer path) and a POST 501 route (rate-limit + body reader path).
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ServiceBroker } from "moleculer";
import { createBrokerOptions } from "../moleculer.config";
import { createGatewayService, gatewayOptionsFromConfig } from "../services/gateway.service";
import { loadConfig } from "../shared/config/config";
import { httpUrl, listenAddresses } from "../shared/mesh/listen-addresses";

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
  statusCodeStats?: Record<string, { count: number }>;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require("autocannon") as Autocannon;

async function load(url: string, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const r = await autocannon({ url, connections: 50, duration: 5, ...extra });
  return {
    reqPerSec: Math.round(r.requests.average),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    errors: r.errors,
    statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, v.count])),
  };
}

/** Plain moleculer-web (defaults, one alias, logger off): the same load against the framework alone. */
async function baseline(): Promise<Record<string, unknown>> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ApiGateway = require("moleculer-web");
  const broker = new ServiceBroker({ logger: false, skipProcessEventRegistration: true });
  broker.createService({ name: "ping", actions: { ping: () => ({ ok: true }) } });
  broker.createService({
    name: "api",
    mixins: [ApiGateway],
    settings: { port: 0, ip: "127.0.0.1", routes: [{ path: "/api", aliases: { "GET /ping": "ping.ping" } }] },
  });
  await broker.start();
  const server = (broker.getLocalService("api") as unknown as { server: Server }).server;
  const address = server.address() as AddressInfo;
  try {
    return await load(`http://127.0.0.1:${address.port}/api/ping`);
  } finally {
    await broker.stop();
  }
}

export default async function (): Promise<Record<string, unknown>> {
  const config = loadConfig({
    PORT: "0",
    HEALTH_PORT: "0",
    ENABLE_METRICS: "false",
    LOG_LEVEL: "warn",
    RATE_LIMIT_POST_PER_MINUTE: "0",
    RATE_LIMIT_READ_PER_MINUTE: "0",
  });
  const t0 = performance.now();
  const broker = new ServiceBroker(createBrokerOptions(config, { overrides: { skipProcessEventRegistration: true } }));
  broker.createService(createGatewayService(gatewayOptionsFromConfig(config, Date.now)));
  await broker.start();
  const api = httpUrl(listenAddresses(broker).api!, "/api/v1");
  const first = await fetch(`${api}/extensions`);
  await first.text();
  const startToFirstAnswerMs = Math.round(performance.now() - t0);

  try {
    return {
      startToFirstAnswerMs,
      note: "in-process, logger at warn, autocannon 50 connections x 5 s on the same 2 cores",
      baselinePlainMoleculerWeb: await baseline(),
      getGatewayAction: await load(`${api}/extensions`),
      get501Route: await load(`${api}/verify/${"a".repeat(64)}`),
      post501RouteWithBody: await load(`${api}/transaction/build`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ type: "default", address: "addr_test1...", certificates: [{ hash: "ab".repeat(32) }] }),
      }),
    };
  } finally {
    await broker.stop();
  }
}
