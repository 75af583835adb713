/** Statistics of the certificates the service anchored. */
import type { RouteSpec } from "./route-spec";

export const STATISTIC_ROUTES = [
  {
    method: "GET",
    path: "/statistic/tx-fees",
    action: "stats.txFees",
    tag: "statistic",
    summary: "Accumulated service fees in lovelace",
    response: "integer",
    responseSchema: "Lovelace",
    implemented: true,
  },
  {
    method: "GET",
    path: "/statistic/certificate/by-category",
    action: "stats.certificatesByCategory",
    tag: "statistic",
    summary: "Certificate count per category",
    response: "object: category → count",
    responseSchema: "CertificatesByCategory",
    implemented: true,
  },
] as const satisfies readonly RouteSpec[];
