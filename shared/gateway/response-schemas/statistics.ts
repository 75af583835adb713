/** Answers of the statistics routes. */
import { CERTIFICATE_CATEGORIES } from "../../domain/certificate-metadata";
import { object, type Schema } from "./shapes";

export const STATISTIC_SCHEMAS = {
  Lovelace: { type: "integer", minimum: 0 },
  CertificatesByCategory: object(Object.fromEntries(CERTIFICATE_CATEGORIES.map((k) => [k, { type: "integer", minimum: 0 }]))),
} satisfies Record<string, Schema>;
