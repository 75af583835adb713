/** The error body every route answers with, and the answers of the gateway's own routes. */
import { object, string, type Schema } from "./shapes";

export const META_SCHEMAS = {
  /** Every error: a stable code and a sentence; routes add their own fields. */
  Error: {
    type: "object",
    required: ["error", "message"],
    properties: {
      error: { type: "string", description: "stable SCREAMING_SNAKE code, e.g. VALIDATION_ERROR" },
      message: { type: "string", description: "what is wrong, in words" },
    },
  },
  OpenApiDocument: object({ openapi: string, info: { type: "object" }, paths: { type: "object" } }),
  AsyncApiDocument: object({ asyncapi: string, info: { type: "object" }, channels: { type: "object" }, operations: { type: "object" } }),
  Extensions: { type: "object", additionalProperties: { type: "boolean" } },
} satisfies Record<string, Schema>;
