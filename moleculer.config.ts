/**
 * Broker configuration, for both modes:
 * - embedded (default, `npm start`): no transporter, every service in one process;
 * - scale: `TRANSPORTER=nats://…` and `SERVICES=…` per process (one image, one Deployment per service group).
 * Every fault-tolerance option is set explicitly (Moleculer's defaults are "off" and a request timeout of 0).
 * Values come from shared/mesh/config.ts, never from process.env directly.
 */
import { httpStatusOfError } from "./shared/gateway/http-status";
import type { BrokerOptions, Errors } from "moleculer";
import pinoPretty from "pino-pretty";
import { loadConfig, type AppConfig } from "./shared/config/config";
import { createHealthMiddleware } from "./shared/mesh/health-middleware";
import { logMethodTakingFacts, secretLogPaths } from "./shared/mesh/log-records";
import { createLostRequestMiddleware } from "./shared/mesh/lost-request-middleware";
import { createBatchStreamMiddleware } from "./shared/mesh/batch-stream-middleware";
import { ActionSubjectNatsTransporter } from "./shared/mesh/action-subject-transporter";

export interface BrokerExtras {
  /** Clock for the readiness delay; tests inject one. */
  now?: () => number;
  /** Delay between `started` and ready (default 500 ms, the gateway alias debounce). */
  readyDelayMs?: number;
  /** Human-readable log lines (pino-pretty) instead of JSON lines: `npm start` on a terminal. */
  prettyLogs?: boolean;
  /** Extra broker options (tests: `skipProcessEventRegistration`, a fixed `nodeID`, …). */
  overrides?: Partial<BrokerOptions>;
}

/** Retry only what the error says is retryable, but not timeouts: a slow callee retried is slower still. */
export function isRetryableError(err: Errors.MoleculerError | Error): boolean {
  const e = err as { retryable?: unknown; type?: unknown };
  return e.retryable === true && e.type !== "REQUEST_TIMEOUT";
}

/** Only server-side failures (5xx) count towards opening a circuit; 501 is "not built", not a failure. */
export function countsAsCircuitFailure(err: Errors.MoleculerError | Error): boolean {
  const status = httpStatusOfError(err);
  return status >= 500 && status !== 501;
}

export function createBrokerOptions(config: AppConfig, extras: BrokerExtras = {}): BrokerOptions {
  const options: BrokerOptions = {
    namespace: config.namespace,
    ...(config.nodeId !== null ? { nodeID: config.nodeId } : {}),
    // NATS, with each request's action in its subject (so nats-server permissions can refuse actions per user)
    transporter: config.transporter === null ? null : new ActionSubjectNatsTransporter(config.transporter),
    // Plain JSON on the wire: bigint (lovelace) crosses service boundaries as decimal strings.
    serializer: "JSON",

    logger:
      config.logLevel === "silent"
        ? false
        : {
            type: "Pino",
            options: {
              level: config.logLevel,
              pino: {
                options: {
                  // Defence in depth: the code never logs these, and pino masks them if an object slips through.
                  redact: { paths: secretLogPaths(), censor: "***" },
                  // `logger.warn("message", { facts })`, the Moleculer way, keeps its facts in the record.
                  hooks: { logMethod: logMethodTakingFacts },
                },
                // Synchronous, so log lines and the start banner (process.stdout) keep their order.
                ...(extras.prettyLogs
                  ? {
                      destination: pinoPretty({
                        sync: true,
                        colorize: true,
                        translateTime: "SYS:HH:MM:ss.l",
                        // One line per entry: the module names the source; node id and namespace are the same on every
                        // line; a record's facts follow its message on the same line; the configuration is for log files.
                        messageFormat: "{mod}: {msg}",
                        singleLine: true,
                        ignore: "pid,hostname,nodeID,ns,mod,svc,config",
                      }),
                    }
                  : {}),
              },
            },
          },

    requestTimeout: config.requestTimeoutMs,
    retryPolicy: {
      enabled: true,
      retries: 2,
      delay: 100,
      maxDelay: 1000,
      factor: 2,
      check: isRetryableError,
    },
    circuitBreaker: {
      enabled: true,
      threshold: 0.5,
      minRequestCount: 20,
      windowTime: 60,
      halfOpenTime: 10_000,
      check: countsAsCircuitFailure,
    },
    bulkhead: {
      enabled: true,
      concurrency: 20,
      maxQueueSize: 200,
    },
    // Graceful shutdown: on SIGTERM running requests may finish for up to shutdownTimeout.
    tracking: {
      enabled: true,
      shutdownTimeout: config.shutdownTimeoutMs,
    },
    registry: {
      strategy: "RoundRobin",
      preferLocal: true,
    },
    heartbeatInterval: 10,
    heartbeatTimeout: 30,
    maxCallLevel: 20,
    validator: true,

    metrics: config.metricsEnabled
      ? {
          enabled: true,
          reporter: [
            {
              type: "Prometheus",
              // Port 0 cannot be combined with a host in Moleculer's reporter.
              options:
                config.metricsPort === 0
                  ? { port: 0, path: "/metrics" }
                  : { port: config.metricsPort, host: config.host, path: "/metrics" },
            },
          ],
        }
      : { enabled: false },
    tracing: { enabled: false },

    middlewares: [
      createHealthMiddleware({
        port: config.healthPort,
        host: config.host,
        ...(extras.readyDelayMs !== undefined ? { readyDelayMs: extras.readyDelayMs } : {}),
        ...(extras.now !== undefined ? { now: extras.now } : {}),
      }),
      // a restarted node or a broken NATS connection: reject (and so retry) what can no longer be answered
      createLostRequestMiddleware(),
      // a Merkle batch to a remote tx-builder goes as a stream of chunks, each within NATS's max_payload
      createBatchStreamMiddleware(),
    ],
  };
  return { ...options, ...extras.overrides };
}

/** For moleculer-runner (`--config moleculer.config.ts`): reads the environment when called. */
export default function brokerConfig(): BrokerOptions {
  return createBrokerOptions(loadConfig(process.env));
}
