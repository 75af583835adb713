/**
 * One delivery attempt over HTTP, with the SSRF guard of endpoint-url.ts: the URL is checked and its host resolved
 * and checked at every attempt (an endpoint's DNS may change after registration), and the request connects to the
 * address checked (its Host header and TLS server name are the URL's host). Redirects are not followed (a 3xx is a
 * failed attempt); at most `maxResponseBytes` of the response are read, the rest is discarded with the connection;
 * one deadline covers the whole attempt. No connection is kept or shared between attempts. Node's default header
 * size limit (16 KiB) bounds the response head. The sender never rejects: every outcome is a value.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { WebhookError } from "./errors";
import { parseEndpointUrl, resolveEndpoint, systemLookup, type AddressPolicy, type HostLookup } from "./endpoint-url";

export interface SendRequest {
  url: string;
  headers: Readonly<Record<string, string>>;
  body: string;
}

/** Why an attempt failed, when it did not get a 2xx. */
export type SendFailure =
  "INVALID_ENDPOINT_URL" | "ENDPOINT_ADDRESS_REFUSED" | "CONNECTION_FAILED" | "TIMEOUT" | "REDIRECT_NOT_FOLLOWED" | "HTTP_ERROR_STATUS";

export interface SendOutcome {
  ok: boolean;
  /** The response status, when one came. */
  status?: number;
  failure?: SendFailure;
  /** A short reason (no secret, no header value). */
  message?: string;
  /** The response's `Retry-After`, as sent. */
  retryAfter?: string;
  /** The first bytes of the response body (at most `maxResponseBytes`), as text. */
  responseExcerpt?: string;
}

/** Sends one attempt; resolves with its outcome, never rejects. */
export type WebhookSender = (request: SendRequest) => Promise<SendOutcome>;

export interface HttpSenderOptions {
  policy: AddressPolicy;
  timeoutMs: number;
  maxResponseBytes: number;
  lookup?: HostLookup;
  userAgent?: string;
}

export const USER_AGENT = "cert-anchor-webhooks/1";

/** A sender over node:http / node:https, guarded as the module header says. */
export function createHttpSender(options: HttpSenderOptions): WebhookSender {
  const lookup = options.lookup ?? systemLookup;
  return async (req) => {
    const deadline = Date.now() + options.timeoutMs;
    let target;
    try {
      const endpoint = parseEndpointUrl(req.url, options.policy);
      const address = await withDeadline(resolveEndpoint(endpoint, options.policy, lookup), deadline);
      target = { endpoint, address };
    } catch (err) {
      if (err instanceof WebhookError) return { ok: false, failure: err.type as SendFailure, message: err.message };
      if (err === TIMED_OUT) return { ok: false, failure: "TIMEOUT", message: "the host did not resolve in time" };
      throw err;
    }
    return post(target.endpoint, target.address, req, Math.max(1, deadline - Date.now()), options);
  };
}

const TIMED_OUT = Symbol("timed out");

function withDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(TIMED_OUT), Math.max(0, deadline - Date.now()))));
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function post(
  endpoint: ReturnType<typeof parseEndpointUrl>,
  address: { address: string; family: 4 | 6 },
  req: SendRequest,
  timeoutMs: number,
  options: HttpSenderOptions,
): Promise<SendOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    let response: { status: number; retryAfter?: string } | undefined;
    const chunks: Buffer[] = [];
    let received = 0;

    const outcomeOfResponse = (status: number, retryAfter: string | undefined): SendOutcome => {
      const excerpt = received > 0 ? Buffer.concat(chunks).toString("utf8") : undefined;
      const extra = { ...(retryAfter !== undefined ? { retryAfter } : {}), ...(excerpt !== undefined ? { responseExcerpt: excerpt } : {}) };
      if (status >= 200 && status < 300) return { ok: true, status, ...extra };
      if (status >= 300 && status < 400)
        return { ok: false, status, failure: "REDIRECT_NOT_FOLLOWED", message: `answered ${status}: redirects are not followed`, ...extra };
      return { ok: false, status, failure: "HTTP_ERROR_STATUS", message: `answered ${status}`, ...extra };
    };
    const finish = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(outcome);
    };

    const send = endpoint.secure ? httpsRequest : httpRequest;
    const request = send({
      host: address.address,
      family: address.family,
      port: endpoint.port,
      method: "POST",
      path: endpoint.path,
      agent: false,
      ...(endpoint.secure && !endpoint.ipLiteral ? { servername: endpoint.hostname } : {}),
      headers: {
        ...req.headers,
        host: endpoint.hostHeader,
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(req.body)),
        "user-agent": options.userAgent ?? USER_AGENT,
      },
    });
    const timer = setTimeout(
      () =>
        finish(
          response
            ? outcomeOfResponse(response.status, response.retryAfter) // the status came; only the body was slow
            : { ok: false, failure: "TIMEOUT", message: `no answer within ${options.timeoutMs} ms` },
        ),
      timeoutMs,
    );
    request.on("error", (err: NodeJS.ErrnoException) => {
      if (response) finish(outcomeOfResponse(response.status, response.retryAfter));
      else finish({ ok: false, failure: "CONNECTION_FAILED", message: err.code ?? err.message });
    });
    request.on("response", (res: IncomingMessage) => {
      const retryAfter = res.headers["retry-after"];
      response = { status: res.statusCode ?? 0, ...(retryAfter !== undefined ? { retryAfter } : {}) };
      const done = () => finish(outcomeOfResponse(response!.status, response!.retryAfter));
      res.on("data", (chunk: Buffer) => {
        const room = options.maxResponseBytes - received;
        if (room > 0) {
          chunks.push(chunk.subarray(0, room));
          received += Math.min(room, chunk.length);
        }
        if (received >= options.maxResponseBytes) done(); // the rest is not read: the connection is closed
      });
      res.on("end", done);
      res.on("error", done);
      res.on("aborted", done);
    });
    request.end(req.body);
  });
}
