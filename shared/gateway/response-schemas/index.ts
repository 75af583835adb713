/**
 * JSON Schemas of the API's answers (docs/api.md), the `components.schemas` of the OpenAPI document. Routes name
 * theirs in the route table (`responseSchema`, `failureSchema`); test/support/openapi-conformance.ts validates
 * every answer the test suite sees against them. Objects allow more properties than they list (clients must
 * ignore unknown fields), so adding a field is never a breaking change of the document.
 */
import { ADMIN_SCHEMAS } from "./admin";
import { CERTIFICATE_SCHEMAS } from "./certificates";
import { CREDENTIAL_SCHEMAS } from "./credentials";
import { CONNECTED_GOODS_SCHEMAS, LIST_EXTENSION_SCHEMAS } from "./extensions";
import { LIBRARY_SCHEMAS } from "./library";
import { META_SCHEMAS } from "./meta";
import { SCRIPT_SCHEMAS } from "./scripts";
import { STATISTIC_SCHEMAS } from "./statistics";
import { TRANSACTION_SCHEMAS } from "./transactions";
import { TRANSPARENCY_LOG_SCHEMAS } from "./transparency-log";
import { USER_SCHEMAS } from "./users";
import { WEBHOOK_SCHEMAS } from "./webhooks";

// The published document has always listed the schemas in this order; a few areas' schemas stand apart in it.
const { BuildTransactionResponse, BatchBuildResponse, ...TRANSACTION_ANSWERS } = TRANSACTION_SCHEMAS;
const { CalendarReceipt, CalendarSubmitResponse, ...CERTIFICATE_ANSWERS } = CERTIFICATE_SCHEMAS;

export const RESPONSE_SCHEMAS = {
  ...META_SCHEMAS,
  ...LIST_EXTENSION_SCHEMAS,
  BuildTransactionResponse,
  BatchBuildResponse,
  CalendarReceipt,
  CalendarSubmitResponse,
  ...CONNECTED_GOODS_SCHEMAS,
  ...TRANSACTION_ANSWERS,
  ...CERTIFICATE_ANSWERS,
  ...TRANSPARENCY_LOG_SCHEMAS,
  ...WEBHOOK_SCHEMAS,
  ...USER_SCHEMAS,
  ...CREDENTIAL_SCHEMAS,
  ...LIBRARY_SCHEMAS,
  ...STATISTIC_SCHEMAS,
  ...SCRIPT_SCHEMAS,
  ...ADMIN_SCHEMAS,
};

export type SchemaName = keyof typeof RESPONSE_SCHEMAS;
