// One error class for everything the devnet refuses. `code` is the Ogmios JSON-RPC error code (so the server can
// forward it unchanged), `type` a stable SCREAMING_SNAKE name, `payload` the Ogmios code-specific error data.
import { TypedError } from "../domain/errors";

/** Stable names for the Ogmios error codes the devnet emits. */
const DEVNET_ERROR_TYPES: Record<number, string> = {
  [-32700]: "PARSE_ERROR",
  [-32600]: "INVALID_REQUEST",
  [-32601]: "METHOD_NOT_FOUND",
  [-32602]: "INVALID_PARAMS",
  [-32603]: "INTERNAL_ERROR",
  1000: "INTERSECTION_NOT_FOUND",
  3002: "OVERLAPPING_ADDITIONAL_UTXO",
  3004: "CANNOT_CREATE_EVALUATION_CONTEXT",
  3010: "SCRIPT_EXECUTION_FAILURE",
  3011: "INVALID_REDEEMER_POINTERS",
  3012: "VALIDATION_FAILURE",
  3100: "INVALID_SIGNATORIES",
  3101: "MISSING_SIGNATORIES",
  3102: "MISSING_SCRIPTS",
  3103: "FAILING_NATIVE_SCRIPT",
  3104: "EXTRANEOUS_SCRIPTS",
  3105: "MISSING_METADATA_HASH",
  3106: "MISSING_METADATA",
  3107: "METADATA_HASH_MISMATCH",
  3109: "MISSING_REDEEMERS",
  3110: "EXTRANEOUS_REDEEMERS",
  3111: "MISSING_DATUMS",
  3112: "EXTRANEOUS_DATUMS",
  3113: "SCRIPT_INTEGRITY_HASH_MISMATCH",
  3117: "UNKNOWN_OUTPUT_REFERENCES",
  3118: "OUTSIDE_OF_VALIDITY_INTERVAL",
  3119: "TRANSACTION_TOO_LARGE",
  3120: "VALUE_TOO_LARGE",
  3121: "EMPTY_INPUT_SET",
  3122: "TRANSACTION_FEE_TOO_SMALL",
  3123: "VALUE_NOT_CONSERVED",
  3124: "NETWORK_MISMATCH",
  3125: "INSUFFICIENTLY_FUNDED_OUTPUTS",
  3128: "INSUFFICIENT_COLLATERAL",
  3131: "TOO_MANY_COLLATERAL_INPUTS",
  3132: "MISSING_COLLATERAL_INPUTS",
  3134: "EXECUTION_UNITS_TOO_LARGE",
  3136: "SPENDS_MISMATCH",
  3141: "INCOMPLETE_WITHDRAWALS",
  3145: "CREDENTIAL_ALREADY_REGISTERED",
  3146: "UNKNOWN_CREDENTIAL",
  3164: "CONFLICTING_INPUTS_AND_REFERENCES",
  3997: "UNEXPECTED_MEMPOOL_ERROR",
};

/** A refusal by the devnet, carrying the Ogmios error code and its code-specific data. */
export class DevnetError extends TypedError {
  override readonly name = "DevnetError";
  /** the Ogmios error data, sent as is (an object or, for some codes, an array) */
  readonly payload: unknown;

  constructor(
    /** the Ogmios JSON-RPC error code */
    readonly code: number,
    message: string,
    data?: unknown,
    type?: string,
  ) {
    super(
      type ?? DEVNET_ERROR_TYPES[code] ?? "DEVNET_ERROR",
      message,
      data !== null && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : {},
    );
    this.payload = data;
  }
}

/** Errors about the devnet's own setup (not Ogmios protocol errors); code -32603 so the server reports them as internal. */
export function devnetSetupError(type: string, message: string, data?: unknown): DevnetError {
  return new DevnetError(-32603, message, data, type);
}
