/**
 * The transparency log (docs/transparency-log.md): what it is and consistency proofs. Its checkpoint and tiles are
 * served under the monitoring prefix `/api/v1/log` by ../log-tiles.ts (c2sp.org/tlog-tiles paths, not this table).
 */
import type { RouteSpec } from "./route-spec";

export const TRANSPARENCY_LOG_ROUTES = [
  {
    method: "GET",
    path: "/log",
    action: "calendar.log",
    tag: "log",
    summary: "The transparency log: origin, verifier key, monitoring prefix, latest signed checkpoint",
    response: "LogInfo { origin, verifierKey, monitoringPrefix, size, checkpoint }",
    responseSchema: "LogInfo",
    errors: ["CALENDAR_DISABLED"],
    statuses: { 403: "the calendar (and its log) is disabled (BATCH_CALENDAR_ENABLED=false)" },
    implemented: true,
  },
  {
    method: "GET",
    path: "/log/consistency",
    action: "calendar.logConsistency",
    tag: "log",
    summary: "A consistency proof (RFC 9162 §2.1.4) between two sizes the log has reached",
    response: "LogConsistency { from, to, proof: base64 hashes }",
    responseSchema: "LogConsistency",
    query: [
      { name: "from", required: true, description: "the older size (> 0)" },
      { name: "to", required: true, description: "the newer size (≤ the latest checkpoint's)" },
    ],
    errors: ["BAD_REQUEST", "CALENDAR_DISABLED"],
    readBudget: true,
    implemented: true,
  },
] as const satisfies readonly RouteSpec[];
