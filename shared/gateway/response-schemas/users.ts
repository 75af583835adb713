/** Answers of user actions and the faucet: the challenge to sign, the result, and a refusal in the route's shape. */
import { HEX, HASH_32, integer, nullable, object, ref, string, type Schema } from "./shapes";

export const USER_SCHEMAS = {
  UserActionChallenge: object(
    {
      address: string,
      action: string,
      message: string,
      signature: { type: "string", pattern: HEX },
      timestamp: integer,
      status: { type: "string", enum: ["200 OK"] },
    },
    ["address", "action", "message", "signature", "timestamp", "status"],
  ),
  UserActionResult: object(
    {
      state: nullable({ type: "object" }),
      unsignedTransaction: nullable({ type: "string", pattern: HEX }),
      status: { type: "string", enum: ["200 OK"] },
    },
    ["state", "unsignedTransaction", "status"],
  ),
  /** A refused user action or faucet step: the route's fields (nulls), `error`, `message` and `status` ("401 UNAUTHORIZED"…). */
  UserActionFailure: { allOf: [ref("Error"), object({ status: { type: "string", pattern: "^[45][0-9]{2} [A-Z_]+$" } })] },
  Boolean: { type: "boolean" },
  FaucetChallenge: object(
    { address: string, message: string, signature: { type: "string", pattern: HEX }, timestamp: integer, status: string },
    ["address", "message", "signature", "timestamp", "status"],
  ),
  FaucetClaim: object(
    {
      txHash: { type: "string", pattern: HASH_32 },
      transactionHash: { type: "string", pattern: HASH_32 },
      lovelace: { type: "string", pattern: "^[0-9]+$" },
      status: string,
    },
    ["txHash", "transactionHash", "status"],
  ),
} satisfies Record<string, Schema>;
