/** Transaction building of the certificate-anchoring protocol: requests, pre-checks, selection, builders. */
export * from "./build-outcome";
export * from "./build-request";
export * from "./build-dispatch";
export * from "./create-env";
export type { IssuanceEnv, ProtocolSource, Deployment } from "./issuance-env";
export * from "./batch-build";
export * from "./calendar-anchor";
