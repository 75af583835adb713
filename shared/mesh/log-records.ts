/**
 * How a Moleculer log call becomes one pino record. Moleculer hands pino its arguments as they were given, and the
 * code logs the Moleculer way, `logger.warn("what happened", { facts })`; pino takes a string first argument as a
 * format string and drops whatever it does not interpolate, so without this hook every record lost its facts.
 */

/** Keys pino masks wherever they appear at the top of a record or one level down (defence in depth). */
export const SECRET_LOG_KEYS = [
  "password",
  "mnemonic",
  "secret",
  "secrets",
  "managementToken",
  "token",
  "apiKey",
  "adminApiKey",
  "signingKey",
  "privateKey",
  "authorization",
] as const;

/** pino `redact.paths` for SECRET_LOG_KEYS, and the secret headers of a logged request. */
export function secretLogPaths(): string[] {
  return [
    ...SECRET_LOG_KEYS.flatMap((k) => [k, `*.${k}`]),
    "headers.authorization",
    'headers["x-api-key"]',
    "*.headers.authorization",
    '*.headers["x-api-key"]',
  ];
}

/**
 * Rewrites `(message, ...rest)` as pino's `(facts, message)`: plain objects are merged into the record, an Error
 * becomes `err` (pino serialises its type, message and stack), other values are appended to the message. Calls
 * already in pino's form (an object first) pass unchanged.
 */
export function asPinoArguments(args: readonly unknown[]): unknown[] {
  if (typeof args[0] !== "string" || args.length < 2) return [...args];
  let message = args[0];
  let facts: Record<string, unknown> | undefined;
  for (const arg of args.slice(1)) {
    if (arg instanceof Error) facts = { ...facts, err: arg };
    else if (typeof arg === "object" && arg !== null && !Array.isArray(arg)) facts = { ...facts, ...(arg as Record<string, unknown>) };
    else if (arg !== undefined) message += ` ${typeof arg === "string" ? arg : JSON.stringify(arg)}`;
  }
  return facts === undefined ? [message] : [facts, message];
}

/** A pino `hooks.logMethod` applying asPinoArguments to every call. */
export function logMethodTakingFacts(this: unknown, inputArgs: unknown[], method: (...args: unknown[]) => void): void {
  method.apply(this, asPinoArguments(inputArgs));
}
