/**
 * The two-step signed flow shared by user actions and the faucet (docs/decisions.md#user-action-verification): step 1 issues a
 * challenge message signed by the service; step 2 accepts it back with the wallet's CIP-30 signData output.
 * Step 2 holds only when all of these do: the message rebuilt from the request equals `message`; the service
 * signature verifies; the COSE_Sign1 verifies with the COSE key, its payload is the message, its `address` header
 * is `address` and the key's hash is the address's payment credential (shared/wallet verifyDataSignature); the
 * timestamp is within ±10 minutes of now; the challenge has not been used before.
 */
import { DomainError } from "../domain/errors";
import { HexBytes } from "../domain/hex";
import { isWithinWindow, userActionMessage, USER_ACTION_WINDOW_MS } from "../domain/user-action-message";
import { verifyDataSignature } from "../wallet";
import type { ReplayGuard } from "./replay-guard";
import type { ServiceSigningKey } from "./service-signing-key";

export interface Challenge {
  address: string;
  action: string;
  stateId?: string;
  timestamp: number;
  message: string;
  signature: string;
}

export interface SignedChallenge extends Challenge {
  userSignature: string;
  userPublicKey: string;
}

export function issueChallenge(
  key: ServiceSigningKey,
  input: { address: string; action: string; stateId?: string; now: number },
): Challenge {
  const message = userActionMessage({
    action: input.action,
    ...(input.stateId ? { stateId: input.stateId } : {}),
    timestamp: input.now,
    address: input.address,
  });
  return {
    address: input.address,
    action: input.action,
    ...(input.stateId ? { stateId: input.stateId } : {}),
    timestamp: input.now,
    message,
    signature: key.sign(message),
  };
}

/** @throws DomainError INVALID_MESSAGE, INVALID_SIGNATURE, EXPIRED_CHALLENGE, CHALLENGE_REPLAYED */
export async function verifySignedChallenge(
  c: SignedChallenge,
  deps: { key: ServiceSigningKey; replay: ReplayGuard; now: number },
): Promise<void> {
  const rebuilt = userActionMessage({
    action: c.action,
    ...(c.stateId ? { stateId: c.stateId } : {}),
    timestamp: c.timestamp,
    address: c.address,
  });
  if (rebuilt !== c.message) {
    throw new DomainError("INVALID_MESSAGE", "The message does not match the action, state, timestamp and address of the request.");
  }
  await verifySignedMessage(c, deps);
}

/** What step 2 of any signed flow carries back: the challenge as issued, and the wallet's CIP-30 signData output. */
export type SignedMessage = Pick<SignedChallenge, "address" | "timestamp" | "message" | "signature" | "userSignature" | "userPublicKey">;

/**
 * Step 2's checks once the caller has compared `message` with the one it rebuilt from the request (user actions
 * above; the webhooks' address proofs, shared/webhooks/address-proof.ts): the service signature, the wallet's
 * signature by the key of the address's payment credential, the time window, one use.
 * @throws DomainError INVALID_SIGNATURE, EXPIRED_CHALLENGE, CHALLENGE_REPLAYED
 */
export async function verifySignedMessage(
  c: SignedMessage,
  deps: { key: ServiceSigningKey; replay: ReplayGuard; now: number },
): Promise<void> {
  if (!deps.key.verify(c.message, c.signature)) {
    throw new DomainError("INVALID_SIGNATURE", "The service signature of the challenge is not valid.");
  }
  const payloadHex = Buffer.from(c.message, "utf8").toString("hex");
  if (!verifyDataSignature({ signature: c.userSignature, key: c.userPublicKey, payloadHex, address: c.address })) {
    throw new DomainError(
      "INVALID_SIGNATURE",
      "The wallet signature is not valid: it must be CIP-30 signData of the message, for this address, with the key of its payment credential.",
    );
  }
  if (!isWithinWindow(c.timestamp, deps.now)) {
    throw new DomainError("EXPIRED_CHALLENGE", "The challenge is outdated (signed messages are valid for 10 minutes); request a new one.");
  }
  // The signature verified above is 64 bytes of hex: its bytes, in either case, are one challenge.
  if (!(await deps.replay.claim(HexBytes(c.signature), c.timestamp + USER_ACTION_WINDOW_MS + 60_000, deps.now))) {
    throw new DomainError("CHALLENGE_REPLAYED", "This signed challenge was already used; request a new one.");
  }
}
