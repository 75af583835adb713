import type { IncomingMessage, ServerResponse } from "node:http";
import { allowedMethods, type GatewayRequest, type GatewayThis } from "./gateway-request";

/**
 * HTTP method semantics moleculer-web lacks:
 * - OPTIONS never runs a route's handler. With CORS on, a preflight (it names Access-Control-Request-Method) is
 *   left to moleculer-web's CORS step; any other OPTIONS answers 204 with the methods the path serves.
 * - HEAD answers what GET would, headers only. moleculer-web would end a HEAD answer without its Content-Length:
 *   it writes the GET answer instead, and Node leaves the body out (the response knows it answers a HEAD).
 */
export function createMethodSemantics(corsEnabled: boolean) {
  return function methodSemantics(this: GatewayThis, req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void): void {
    if (req.method === "HEAD") {
      req.method = "GET";
      const end = res.end.bind(res) as (chunk?: unknown, ...rest: unknown[]) => ServerResponse;
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if ((typeof chunk === "string" || Buffer.isBuffer(chunk)) && !res.headersSent && !res.hasHeader("Content-Length")) {
          res.setHeader("Content-Length", Buffer.byteLength(chunk));
        }
        return end(chunk, ...rest);
      }) as ServerResponse["end"];
      return next();
    }
    if (req.method !== "OPTIONS") return next();
    if (corsEnabled && req.headers["access-control-request-method"] !== undefined) return next();
    const greq = req as GatewayRequest;
    const allowed = allowedMethods(this, greq.parsedUrl ?? (req.url ?? "/").split("?")[0]!);
    res.writeHead(204, { Allow: [...allowed, "OPTIONS"].join(", "), "Content-Length": "0" });
    res.end();
  };
}
