/**
 * The public HTTP gateway (moleculer-web) at `/api/v1`. Everything it serves comes from the route table in
 * shared/mesh/routes.ts: implemented routes call their action, the others answer 501 NOT_IMPLEMENTED.
 * Its own actions: the OpenAPI document and the extension registry.
 */
import type { Server } from "node:http";
import type { Context, ServiceSchema } from "moleculer";
import ApiGateway from "moleculer-web";
import type { ApiSettingsSchema } from "moleculer-web";
import pkg from "../package.json";
import type { AppConfig } from "../shared/mesh/config";
import { BODY_LIMIT_BYTES } from "../shared/mesh/body-reader";
import { answerClientErrorsWithJson } from "../shared/mesh/client-error";
import { buildGatewaySettings, type GatewayOptions } from "../shared/mesh/gateway-settings";
import { buildOpenApiDocument } from "../shared/mesh/openapi";
import { defineRouteActions } from "../shared/mesh/route-actions";
import { ROUTES } from "../shared/mesh/routes";
import type { ServiceDeps } from "../shared/mesh/service-deps";

/** Extension identifiers of GET /extensions and the service that provides each (interface.md "Other"). */
export const EXTENSION_SERVICES = {
  "fractionized-certificate": "fractionized",
  "tokenizable-certificate": "tokenizable",
} as const;

export function gatewayOptionsFromConfig(config: AppConfig, now: () => number): GatewayOptions {
  return {
    port: config.port,
    host: config.host,
    routes: ROUTES,
    corsOrigins: config.corsOrigins,
    rateLimitPostPerMinute: config.rateLimitPostPerMinute,
    trustProxy: config.trustProxy,
    adminApiKey: config.adminApiKey,
    adminOpenWithoutKey: config.network === "devnet",
    now,
  };
}

export function createGatewayService(opts: GatewayOptions): ServiceSchema<ApiSettingsSchema> {
  const openapi = buildOpenApiDocument(opts.routes, {
    title: "cert-anchor API",
    version: pkg.version,
    adminKeyConfigured: opts.adminApiKey !== null,
    rateLimitPostPerMinute: opts.rateLimitPostPerMinute,
    bodyLimitBytes: opts.bodyLimitBytes ?? BODY_LIMIT_BYTES,
  });

  return {
    name: "gateway",
    mixins: [ApiGateway],
    settings: buildGatewaySettings(opts),
    actions: {
      // The HTTP entry action must never be retried (it would re-run a consumed request), queued by the
      // bulkhead (it would cap HTTP concurrency), or tripped by the circuit breaker (it fails when callees do).
      rest: {
        retryPolicy: { enabled: false },
        bulkhead: { enabled: false },
        circuitBreaker: { enabled: false },
      } as never,
      ...defineRouteActions("gateway", {
        openapi: {
          handler: () => openapi,
        },
        extensions: {
          handler(this: { broker: Context["broker"] }) {
            const registry = this.broker.registry as unknown as { hasService(name: string): boolean };
            return Object.fromEntries(
              Object.entries(EXTENSION_SERVICES).map(([id, service]) => [id, registry.hasService(service)]),
            );
          },
        },
      }),
    },
    created() {
      // Runs after moleculer-web's own `created`, which made the server.
      const server = (this as unknown as { server?: Server }).server;
      if (server) answerClientErrorsWithJson(server);
    },
    methods: {
      // moleculer-web's default logs err.data of 5xx errors; ours logs (without bodies) in onError.
      errorHandler(this: { sendError(req: unknown, res: unknown, err: unknown): void }, req: unknown, res: unknown, err: unknown) {
        this.sendError(req, res, err);
      },
    },
  };
}

export default (deps: ServiceDeps) => createGatewayService(gatewayOptionsFromConfig(deps.config, deps.now));
