/** Answers of the transparency-log routes. */
import { integer, nullable, object, string, type Schema } from "./shapes";

const base64Hash = { type: "string", pattern: "^[A-Za-z0-9+/]{43}=$" };

export const TRANSPARENCY_LOG_SCHEMAS = {
  LogInfo: object(
    {
      origin: string,
      verifierKey: string,
      monitoringPrefix: string,
      size: integer,
      checkpoint: nullable(string),
    },
    ["origin", "verifierKey", "monitoringPrefix", "size", "checkpoint"],
  ),
  LogConsistency: object({ from: integer, to: integer, proof: { type: "array", items: base64Hash } }, ["from", "to", "proof"]),
} satisfies Record<string, Schema>;
