/** Credentials registered by AUTH certificates. */
import type { RouteSpec } from "./route-spec";

export const CREDENTIAL_ROUTES = [
  {
    method: "GET",
    path: "/credential/{paymentCredential}",
    action: "credential.byPaymentCredential",
    tag: "credential",
    summary: "Active credentials of a payment credential (or bech32 address)",
    response: "credentials (one object when `type` is given)",
    query: [{ name: "type", required: false, description: "only credentials of this type" }],
    statuses: { 404: "no active credential" },
    responseSchema: "Credentials",
    errors: ["INVALID_PAYMENT_CREDENTIAL", "NOT_FOUND"],
    implemented: true,
  },
  {
    method: "GET",
    path: "/credential/by-hash/{authHash}",
    action: "credential.byAuthHash",
    tag: "credential",
    summary: "The credential registered by this AUTH certificate (active or revoked)",
    response: "credential",
    query: [
      {
        name: "issuer",
        required: false,
        description:
          "the issuer you trust (payment credential or bech32 address); its registration, with every other issuer of the same hash in `alsoRegisteredBy`. Without it, the hash's registration when one issuer registered it, else 409",
      },
    ],
    statuses: {
      404: "not found",
      409: "AMBIGUOUS_CREDENTIAL: several issuers registered this hash and no `issuer` was named (`issuers` lists them, oldest first)",
    },
    responseSchema: "Credential",
    // INVALID_PAYMENT_CREDENTIAL: an `issuer` that is neither a payment credential nor an address
    errors: ["NOT_FOUND", "AMBIGUOUS_CREDENTIAL", "INVALID_PAYMENT_CREDENTIAL"],
    failureSchema: "CredentialLookupFailure",
    implemented: true,
  },
] as const satisfies readonly RouteSpec[];
