/** Answers of the credential lookups. */
import { HEX, HASH_32, HASH_28, integer, nullable, object, ref, string, type Schema } from "./shapes";

const credential = object(
  {
    authHash: { type: "string", pattern: HEX },
    credentialType: string,
    keriAid: nullable(string),
    txHash: { type: "string", pattern: HASH_32 },
    active: { type: "boolean" },
    keriVerified: { type: "boolean" },
    paymentCredential: { type: "string", pattern: HASH_28 },
    schema: nullable(string),
    oobi: nullable(string),
    slot: integer,
    creationTime: integer,
    revokedTxHash: nullable({ type: "string", pattern: HASH_32 }),
  },
  ["authHash", "credentialType", "txHash", "active", "paymentCredential"],
);

export const CREDENTIAL_SCHEMAS = {
  Credential: credential,
  /** A refused by-hash lookup; AMBIGUOUS_CREDENTIAL carries the hash and every issuer that registered it. */
  CredentialLookupFailure: {
    allOf: [
      ref("Error"),
      object(
        {
          authHash: { type: "string", pattern: HEX },
          issuers: { type: "array", minItems: 2, items: { type: "string", pattern: HASH_28 } },
        },
        [],
      ),
    ],
  },
  /** One credential when `type` is given, else all of them. */
  Credentials: { oneOf: [credential, { type: "array", items: credential }] },
} satisfies Record<string, Schema>;
