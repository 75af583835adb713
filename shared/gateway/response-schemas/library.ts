/** The library scripts' deployment state. */
import { HASH_32, HASH_28, integer, object, string, type Schema } from "./shapes";

export const LIBRARY_SCHEMAS = {
  LibraryDeploymentResponse: object({
    address: string,
    entries: {
      type: "array",
      items: object({
        transactionHash: { type: "string", pattern: HASH_32 },
        outputIndex: integer,
        scriptHash: { type: "string", pattern: HASH_28 },
        isActiveContract: { type: "boolean" },
      }),
    },
    stakeRegistered: { type: "boolean" },
  }),
} satisfies Record<string, Schema>;
