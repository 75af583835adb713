/** The routes the gateway serves itself: its OpenAPI document and the extensions it runs. */
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
    path: "/extensions",
    action: "gateway.extensions",
    tag: "meta",
    summary: "Which extensions this instance runs",
    response: `object: extension identifier → enabled (${Object.keys(EXTENSION_SERVICES).join(", ")})`,
    responseSchema: "Extensions",
    implemented: true,
  },
] as const satisfies readonly RouteSpec[];
