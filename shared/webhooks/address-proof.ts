/**
 * Proof that the caller controls an address, for an endpoint that follows `address:<bech32>` (docs/webhooks.md#who-may-do-what):
 * the user actions' two-step signed flow (shared/user-actions/signed-challenge.ts) with a message of its own.
 * Step 1 (`POST /webhooks/challenge { address, url }`) answers a message naming the address and the endpoint URL,
 * signed by the service's key; step 2 is the registration carrying that challenge back with the wallet's CIP-30
 * `signData` of it. It holds when the message is the one rebuilt from the proof's address, the registration's URL
 * and the timestamp; the service signature verifies; the COSE_Sign1 verifies with a key that hashes to the
 * address's payment credential; the timestamp is within ±10 minutes; and the challenge was not used before. The
 * proven address may be any of the wallet's addresses (a base address): what it proves is its payment key, and an
 * endpoint may then follow the address subjects of that key (the event log names enterprise addresses).
 */
import { DomainError } from "../domain/errors";
import type { KeyHash } from "../domain/hex";
import { walletCredentialOf } from "../user-actions/action-request";
import type { ReplayGuard } from "../user-actions/replay-guard";
import type { ServiceSigningKey } from "../user-actions/service-signing-key";
import { verifySignedMessage, type SignedMessage } from "../user-actions/signed-challenge";
import { webhookError } from "./errors";

/** Step 1's answer. */
export interface AddressChallenge {
  address: string;
  url: string;
  timestamp: number;
  message: string;
  /** The service's signature of `message`, hex. */
  signature: string;
}

/** Step 2, one per proven address: the challenge's fields and the wallet's signData output. */
export type AddressProof = SignedMessage;

export interface AddressProofDeps {
  key: ServiceSigningKey;
  replay: ReplayGuard;
  /** Unix ms. */
  now: number;
  /** The network's id (0 on test networks): a proof names an address of this network. */
  networkId: number;
}

/** The message a wallet signs to have the events of `address` delivered to `url` (the URL as the registration normalises it). */
export function addressChallengeMessage(input: { address: string; url: string; timestamp: number }): string {
  return `[WEBHOOK@${input.timestamp}] Please sign this message with your private key to verify, that you are the owner of the address ${input.address}, and to have its events delivered to ${input.url}.`;
}

/** Step 1. @throws DomainError INVALID_ADDRESS (not a key address of this network) */
export function issueAddressChallenge(
  key: ServiceSigningKey,
  input: { address: string; url: string; now: number; networkId: number },
): AddressChallenge {
  walletCredentialOf(input.address, input.networkId);
  const message = addressChallengeMessage({ address: input.address, url: input.url, timestamp: input.now });
  return { address: input.address, url: input.url, timestamp: input.now, message, signature: key.sign(message) };
}

/**
 * Step 2 for one proof, bound to the registration's URL.
 * @returns the payment key hash the proof shows control of
 * @throws DomainError INVALID_ADDRESS, INVALID_MESSAGE, INVALID_SIGNATURE, EXPIRED_CHALLENGE, CHALLENGE_REPLAYED
 */
export async function verifyAddressProof(proof: AddressProof, url: string, deps: AddressProofDeps): Promise<KeyHash> {
  const credential = walletCredentialOf(proof.address, deps.networkId);
  if (addressChallengeMessage({ address: proof.address, url, timestamp: proof.timestamp }) !== proof.message)
    throw new DomainError(
      "INVALID_MESSAGE",
      "The message does not match the proof's address and timestamp and the registration's url: ask POST /webhooks/challenge with the url you register.",
    );
  await verifySignedMessage(proof, deps);
  return credential;
}

/**
 * The payment key hash an `address:` subject names.
 * @throws WebhookError `INVALID_WEBHOOK_FILTER` when it is not a key address of this network
 */
export function subjectCredential(subject: string, networkId: number): string {
  try {
    return walletCredentialOf(subject.slice("address:".length), networkId);
  } catch (err) {
    const why = (err as Error).message.replace(/^'address' /, "");
    return webhookError("INVALID_WEBHOOK_FILTER", `subjects: ${subject.slice(0, 120)}: the address ${why}`, {
      field: "subjects",
      subject: subject.slice(0, 300),
    });
  }
}

/**
 * The payment key hash a proof claims (its address's), before it is verified.
 * @throws WebhookError `INVALID_WEBHOOK_REQUEST` when the proof's address is not a key address of this network
 */
export function proofCredential(proof: AddressProof, networkId: number, index: number): string {
  try {
    return walletCredentialOf(proof.address, networkId);
  } catch (err) {
    return webhookError(
      "INVALID_WEBHOOK_REQUEST",
      `addressProofs[${index}].address: ${(err as Error).message.replace(/^'address' /, "")}`,
      {
        field: `addressProofs[${index}].address`,
      },
    );
  }
}
