/** The routes the gateway serves itself: its OpenAPI and AsyncAPI documents and the extensions it runs. */
import { EXTENSION_SERVICES } from "../../extensions/registry";
import type { RouteSpec } from "./route-spec";

export const META_ROUTES = [
  {
    method: "GET",
    path: "/openapi.json",
    action: "gateway.openapi",
    tag: "meta",
    summary: "This API as an OpenAPI 3 document",
    response: "OpenAPI 3.0 document generated from the gateway's route table",
    responseSchema: "OpenApiDocument",
    implemented: true,
  },
  {
    method: "GET",
    path: "/asyncapi.json",
    action: "gateway.asyncapi",
    tag: "meta",
    summary: "The chain events published on NATS as an AsyncAPI 3 document",
    response:
      "AsyncAPI 3.0 document generated from the published contract (shared/records/published-events.ts): the subjects under NAMESPACE, their payload schemas, delivery and ordering (docs/nats-contract.md)",
    responseSchema: "AsyncApiDocument",
    implemented: true,
  },
  {
    method: "GET",
    path: "/extensions",
    action: "gateway.extensions",
    tag: "meta",
    summary: "Which extensions this instance runs",
    response: `object: extension identifier → enabled (${Object.keys(EXTENSION_SERVICES).join(", ")})`,
    responseSchema: "Extensions",
    implemented: true,
  },
] as const satisfies readonly RouteSpec[];
