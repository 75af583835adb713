/**
 * Kubernetes liveness/readiness probes as a broker middleware, on their own HTTP server (HEALTH_PORT):
 * - `GET /live`  200 while the process runs, 503 once the broker is stopping;
 * - `GET /ready` 200 once the broker has started, `readyDelayMs` has passed (time for service discovery and the
 *   gateway's alias debounce) and every readiness check the process's services registered passes (the chain is
 *   reachable, the store is open, the protocol is deployed and indexed, …); 503 while starting, stopping,
 *   disconnected from the transporter, or while a check fails — the body names the failing checks.
 * The server opens in the broker's `starting` hook (so /live answers during startup) and closes in `stopped`.
 * The clock is injected so tests can cross the ready delay without waiting.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Middleware, ServiceBroker } from "moleculer";

export interface HealthOptions {
  port: number;
  host: string;
  /** How long after `started` the process reports ready. moleculer-web regenerates aliases after 500 ms. */
  readyDelayMs?: number;
  now?: () => number;
}

export type HealthStatus = "starting" | "ready" | "disconnected" | "stopping" | "not-ready";

/** A readiness check: resolves true when the part it checks can serve (a thrown error counts as false). */
export type ReadinessCheck = () => Promise<boolean> | boolean;

/** How long a check's last answer is reused, and how long one may take. */
const CHECK_TTL_MS = 1_000;
const CHECK_TIMEOUT_MS = 2_000;

export interface HealthMiddleware extends Middleware {
  name: "Health";
  /** Where the probe server listens, once the broker is starting. */
  address(): AddressInfo | null;
  /** What `/ready` would answer now (before running the registered checks). */
  status(): HealthStatus;
  /** Registers a readiness check under `name` (a service registers its own when it starts). */
  addCheck(name: string, check: ReadinessCheck): void;
  /** The names of the checks that fail now. */
  failingChecks(): Promise<string[]>;
  /** Whether the check registered under `name` fails now (false when there is none). */
  isFailing(name: string): Promise<boolean>;
}

/** The check the embedded first start registers while it deploys the protocol; protocol routes wait for it. */
export const PROTOCOL_DEPLOYMENT_CHECK = "protocol deployment";

export function createHealthMiddleware(options: HealthOptions): HealthMiddleware {
  const readyDelayMs = options.readyDelayMs ?? 500;
  const now = options.now ?? Date.now;
  let broker: ServiceBroker | null = null;
  let startedAt: number | null = null;
  let stopping = false;
  let server: http.Server | null = null;
  const checks = new Map<string, { check: ReadinessCheck; ok: boolean; at: number }>();

  const runCheck = async (entry: { check: ReadinessCheck; ok: boolean; at: number }): Promise<boolean> => {
    if (now() - entry.at < CHECK_TTL_MS) return entry.ok;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
      timer.unref();
    });
    try {
      entry.ok = await Promise.race([Promise.resolve(entry.check()).catch(() => false), timeout]);
    } finally {
      clearTimeout(timer);
    }
    entry.at = now();
    return entry.ok;
  };
  const failingChecks = async (): Promise<string[]> => {
    const results = await Promise.all([...checks].map(async ([name, entry]) => ((await runCheck(entry)) ? null : name)));
    return results.filter((n): n is string => n !== null);
  };

  const status = (): HealthStatus => {
    if (stopping) return "stopping";
    if (broker === null || !broker.started || startedAt === null || now() < startedAt + readyDelayMs) return "starting";
    // Transit and transporter both: the NATS transporter drops `connected` once its client has given up.
    const transit = (broker as unknown as { transit?: { connected: boolean; tx?: { connected?: boolean } } }).transit;
    if (transit !== undefined && (!transit.connected || transit.tx?.connected === false)) return "disconnected";
    return "ready";
  };

  const reply = (res: http.ServerResponse, code: number, body: Record<string, unknown>): void => {
    const text = JSON.stringify(body);
    res.writeHead(code, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text) });
    res.end(text);
  };

  const handle = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET" && req.method !== "HEAD") {
      reply(res, 405, { error: "METHOD_NOT_ALLOWED", message: "Probes answer GET only." });
    } else if (path === "/live") {
      if (stopping) reply(res, 503, { status: "stopping" });
      else reply(res, 200, { status: "alive" });
    } else if (path === "/ready") {
      const s = status();
      if (s !== "ready") return reply(res, 503, { status: s });
      void failingChecks().then((failing) =>
        failing.length === 0 ? reply(res, 200, { status: "ready" }) : reply(res, 503, { status: "not-ready", failing }),
      );
    } else {
      reply(res, 404, { error: "NOT_FOUND", message: "Probes: GET /live, GET /ready." });
    }
  };

  return {
    name: "Health",
    address: () => (server?.address() as AddressInfo | null | undefined) ?? null,
    status,
    addCheck(name, check) {
      checks.set(name, { check, ok: false, at: -Infinity });
    },
    failingChecks,
    async isFailing(name) {
      const entry = checks.get(name);
      return entry !== undefined && !(await runCheck(entry));
    },
    created(b: ServiceBroker) {
      broker = b;
    },
    async starting() {
      stopping = false;
      startedAt = null;
      const s = http.createServer(handle);
      await new Promise<void>((resolve, reject) => {
        s.once("error", (err) => reject(new Error(`Health probe server cannot listen on ${options.host}:${options.port}: ${err.message}`)));
        s.listen(options.port, options.host, () => resolve());
      });
      s.on("error", (err) => broker?.logger.warn("Health probe server error", err.message));
      server = s;
    },
    async started() {
      startedAt = now();
    },
    async stopping() {
      stopping = true;
    },
    async stopped() {
      const s = server;
      server = null;
      if (s === null) return;
      await new Promise<void>((resolve) => {
        s.close(() => resolve());
        s.closeAllConnections();
      });
    },
  };
}

/** The health middleware a broker was created with, if any. */
export function findHealthMiddleware(broker: ServiceBroker): HealthMiddleware | undefined {
  const list = (broker as unknown as { middlewares: { list: Middleware[] } }).middlewares.list;
  return list.find((m): m is HealthMiddleware => m.name === "Health");
}

/** Registers a readiness check with the broker's health middleware (nothing happens without one, e.g. in tests). */
export function addReadinessCheck(broker: ServiceBroker, name: string, check: ReadinessCheck): void {
  findHealthMiddleware(broker)?.addCheck(name, check);
}
