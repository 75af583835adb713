/**
 * Reading the bodies of the user-action and faucet routes (camelCase and the reference's snake_case aliases), with
 * every problem a DomainError naming the field.
 */
import { isBech32Address, networkIdOfAddress, paymentCredentialOf } from "../csl/address";
import { DomainError } from "../domain/errors";
import { HEX_PATTERNS, StateId, type KeyHash } from "../domain/hex";
import { parseUserActionMessage, USER_ACTIONS, type UserAction } from "../domain/user-action-message";
import type { SignedChallenge } from "./signed-challenge";

export type Body = Record<string, unknown>;

const bad = (type: string, message: string): never => {
  throw new DomainError(type, message);
};

function field(body: Body, camel: string, snake?: string): unknown {
  return body[camel] ?? (snake !== undefined ? body[snake] : undefined);
}

function text(
  body: Body,
  camel: string,
  snake: string | undefined,
  opts: { required: boolean; max: number; pattern?: RegExp; what?: string },
): string | undefined {
  const v = field(body, camel, snake);
  if (v === undefined || v === null || v === "") {
    if (opts.required) bad("MISSING_FIELD", `'${camel}' is required.`);
    return undefined;
  }
  if (typeof v !== "string") return bad("INVALID_FIELD", `'${camel}' must be a string.`);
  if (v.length > opts.max || (opts.pattern && !opts.pattern.test(v)))
    return bad("INVALID_FIELD", `'${camel}' must be ${opts.what ?? "valid"}.`);
  return v;
}

/** The payment key hash of a wallet address on this network. @throws DomainError INVALID_ADDRESS */
export function walletCredentialOf(address: string, networkId: number): KeyHash {
  if (!isBech32Address(address)) bad("INVALID_ADDRESS", "'address' must be a bech32 Cardano address.");
  if (networkIdOfAddress(address) !== networkId)
    bad("INVALID_ADDRESS", `'address' belongs to another network (this service runs on network id ${networkId}).`);
  const cred = paymentCredentialOf(address);
  if (cred?.kind !== "key") return bad("INVALID_ADDRESS", "'address' must have a key (wallet) payment credential.");
  return cred.hash;
}

const HEX = /^[0-9a-fA-F]+$/;
const ADDRESS = { required: true, max: 200, pattern: /^[a-z0-9_]+$/, what: "a bech32 address" } as const;
const STATE_ID = { required: false, max: 64, pattern: HEX_PATTERNS.hash32, what: "64 hex digits" } as const;
const MESSAGE = { required: true, max: 1000 } as const;
const SIGNATURE = { required: true, max: 200, pattern: HEX, what: "hex" } as const;
const USER_SIGNATURE = { required: true, max: 4000, pattern: HEX, what: "hex (COSE_Sign1)" } as const;
const USER_PUBLIC_KEY = { required: true, max: 1000, pattern: HEX, what: "hex (COSE_Key)" } as const;

function actionOf(body: Body): UserAction {
  const a = field(body, "action");
  if (typeof a !== "string" || !(USER_ACTIONS as readonly string[]).includes(a))
    bad("INVALID_ACTION", `'action' must be one of ${USER_ACTIONS.join(", ")}.`);
  return a as UserAction;
}

/** The body's `stateId`, as a StateId. @throws DomainError INVALID_FIELD */
function stateIdOf(body: Body): StateId | undefined {
  const given = text(body, "stateId", "state_id", STATE_ID);
  return given === undefined ? undefined : StateId(given);
}

export function parseActionRequest(body: Body): { address: string; action: UserAction; stateId?: StateId } {
  const address = text(body, "address", undefined, ADDRESS)!;
  const action = actionOf(body);
  const stateId = stateIdOf(body);
  if (action === "INVALIDATE_STATE" && stateId === undefined) bad("STATE_ID_REQUIRED", "State ID is required for invalidation.");
  // Only INVALIDATE_STATE names a state; OPT_OUT and USER_INFO ignore one (as the reference does).
  return { address, action, ...(action === "INVALIDATE_STATE" ? { stateId } : {}) };
}

function signedFields(body: Body, action: string, stateId: string | undefined): SignedChallenge {
  const address = text(body, "address", undefined, ADDRESS)!;
  const message = text(body, "message", undefined, MESSAGE)!;
  const signature = text(body, "signature", undefined, SIGNATURE)!;
  const userSignature = text(body, "userSignature", "user_signature", USER_SIGNATURE)!;
  const userPublicKey = text(body, "userPublicKey", "user_public_key", USER_PUBLIC_KEY)!;
  const timestamp = field(body, "timestamp");
  if (typeof timestamp !== "number" || !Number.isSafeInteger(timestamp) || timestamp < 0)
    bad("INVALID_FIELD", "'timestamp' must be the integer (a JSON number, Unix ms) of step 1.");
  return {
    address,
    action,
    ...(stateId ? { stateId } : {}),
    timestamp: timestamp as number,
    message,
    signature,
    userSignature,
    userPublicKey,
  };
}

/** Step 2 of a user action; `stateId` comes from the signed message when the body omits it (existing clients do). */
export function parseExecuteRequest(body: Body): SignedChallenge & { action: UserAction } {
  const action = actionOf(body);
  let stateId: string | undefined = stateIdOf(body);
  if (action === "INVALIDATE_STATE" && stateId === undefined) {
    const m = typeof body["message"] === "string" ? parseUserActionMessage(body["message"]) : undefined;
    // The signed message's text, compared with the message rebuilt from it: any run of hex, not only a StateId.
    stateId = m?.stateId?.toLowerCase();
    if (stateId === undefined) bad("STATE_ID_REQUIRED", "State ID is required for invalidation.");
  }
  const signed = signedFields(body, action, action === "INVALIDATE_STATE" ? stateId : undefined);
  return { ...signed, action };
}

export const FAUCET_ACTION = "FAUCET_REQUEST";

export function parseFaucetRequest(body: Body): { address: string } {
  return { address: text(body, "address", undefined, ADDRESS)! };
}

export function parseFaucetClaim(body: Body): SignedChallenge {
  return signedFields(body, FAUCET_ACTION, undefined);
}
