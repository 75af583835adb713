/** The webhook delivery engine (docs/webhooks.md): plain modules, ports injected; the service wires them. */
export * from "./errors";
export * from "./event-source";
export * from "./signature";
export * from "./settings";
export * from "./endpoint-url";
export * from "./http-sender";
export * from "./collections";
export * from "./delivery-queue";
export * from "./registry";
export * from "./dispatcher";
export * from "./deliverer";
export * from "./polling-loop";
