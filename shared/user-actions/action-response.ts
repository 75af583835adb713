/**
 * The bodies of the user-action and faucet routes: every answer carries the spec's `status` string
 * (`"200 OK"`, `"400 BAD_REQUEST"`, …); a failure also `error` (its code) and `message`, in the route's own shape.
 */

const STATUS_NAMES: Record<number, string> = {
  200: "OK",
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  429: "TOO_MANY_REQUESTS",
  500: "INTERNAL_SERVER_ERROR",
  502: "BAD_GATEWAY",
  503: "SERVICE_UNAVAILABLE",
  504: "GATEWAY_TIMEOUT",
};

/** `"400 BAD_REQUEST"` */
function statusString(code: number): string {
  return `${code} ${STATUS_NAMES[code] ?? "INTERNAL_SERVER_ERROR"}`;
}

/** A successful answer: the body with `status: "200 OK"`. */
export function successBody<T extends Record<string, unknown>>(body: T): T & { status: string } {
  return { ...body, status: statusString(200) };
}

/** What the gateway's error mapping made of a failure: its status and `{ error, message, …extra }`. */
export interface FailureReply {
  status: number;
  body: { error: string; message: string; [field: string]: unknown };
}

/** A failure in the route's shape: `base` (the route's fields, nulls) + `error`, `message`, extra fields, `status`. */
export function failureBody<T extends Record<string, unknown>>(
  base: T,
  reply: FailureReply,
): T & { status: string; error: string; message: string } {
  return { ...base, ...reply.body, status: statusString(reply.status) };
}
