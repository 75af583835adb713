/**
 * The gateway's side of stopping work that outlives its HTTP request: for an `abandonable` route (routes/), the
 * gateway names the request by its context's id (a random id the client cannot choose) in `meta.abortKey`, and when
 * the client's connection closes before the answer it broadcasts `REQUEST_GONE_EVENT` to the route's service group.
 * The service side (shared/mesh/request-signals.ts) turns that into an AbortSignal its action checks.
 */
import type { ServerResponse } from "node:http";
import type { ServiceBroker } from "moleculer";

export const REQUEST_GONE_EVENT = "gateway.requestGone";
/** The meta field that names the HTTP request an action call serves. */
export const ABORT_KEY_META = "abortKey";

/** When `res` closes before its answer is written, tell `service` that request `key` is gone. */
export function announceWhenGone(broker: ServiceBroker, res: ServerResponse, key: string, service: string): void {
  res.once("close", () => {
    if (res.writableEnded) return;
    broker.broadcast(REQUEST_GONE_EVENT, { key }, { groups: [service] }).catch(() => undefined);
  });
}
