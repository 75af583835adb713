/**
 * What the webhook routes do (docs/webhooks.md#the-routes), over the engine's registry, dispatcher and queue, with
 * the authorization rules of docs/webhooks.md#who-may-do-what:
 * - an endpoint is managed with the management token it was registered with (the gateway hands over the token's
 *   SHA-256 as `owner`); a registration without a token makes a new one, shown once;
 * - `hash:`, `transaction:`, `list:`, `state:`, `request:` and `endpoint:` subjects are followed by anyone who names
 *   them (the event log is public); an `address:` subject needs a proof that the caller controls the address's
 *   payment key (address-proof.ts), bound to the endpoint's URL;
 * - each client (the gateway's client key) registers at most `registrationsPerHour` endpoints an hour on one
 *   replica, each owner at most the registry's `maxEndpointsPerOwner`;
 * - a token that manages another endpoint is refused (403); an id no endpoint has is not found (404).
 * Secrets and tokens are in the answers that make them and nowhere else: not in any other answer, not in an error,
 * not in a log.
 */
import { FixedWindowCounter } from "../domain/fixed-window-counter";
import type { ReplayGuard } from "../user-actions/replay-guard";
import type { ServiceSigningKey } from "../user-actions/service-signing-key";
import {
  issueAddressChallenge,
  proofCredential,
  subjectCredential,
  verifyAddressProof,
  type AddressChallenge,
  type AddressProof,
} from "./address-proof";
import type { DeadLetterPage, DeliveryQueue } from "./delivery-queue";
import type { ReplayResult, WebhookDispatcher } from "./dispatcher";
import { parseEndpointUrl } from "./endpoint-url";
import { compareEventIds, type EventSource } from "./event-source";
import { webhookError, type WebhookError } from "./errors";
import { generateManagementToken, isTokenOwner, ownerOfToken } from "./management-token";
import type { EndpointView, WebhookRegistry } from "./registry";
import {
  parseChallengeRequest,
  parseDeadLetterQuery,
  parseList,
  parseNoBody,
  parseRegistration,
  parseReplay,
  type Params,
} from "./requests";
import type { WebhookSettings } from "./settings";

/** Who is asking, as the gateway tells: the token's owner (when a token came) and the client's rate-limit key. */
export interface Caller {
  owner?: string;
  clientKey?: string;
}

/** An endpoint as the routes answer it: the engine's view without its owner (the token's hash). */
export type EndpointAnswer = Omit<EndpointView, "owner">;

export interface RegistrationAnswer extends EndpointAnswer {
  /** Shown once: the key deliveries are signed with. */
  secret: string;
  /** Shown once, when this registration made the token (a registration that presented one gets none). */
  managementToken?: string;
}

export interface ManagementOptions {
  registry: WebhookRegistry;
  dispatcher: Pick<WebhookDispatcher, "replay">;
  queue: Pick<DeliveryQueue, "deadLetters">;
  settings: WebhookSettings;
  /** Unix ms. */
  clock: () => number;
  /** The network's id: proven addresses are of this network. */
  networkId: number;
  /** Registrations one client may attempt per hour on this replica; 0: no limit. */
  registrationsPerHour: number;
  /** The service's challenge key and the one-use guard of address proofs (opened on first use). */
  addressProofs: () => Promise<{ key: ServiceSigningKey; replay: ReplayGuard }>;
  /** The oldest event the log keeps (retention deletes older ones): a replay from before it is refused. */
  events?: Pick<EventSource, "oldest">;
  /** EVENTS_RETENTION_DAYS, for the refusal's message */
  retentionDays?: number;
}

const HOUR_MS = 60 * 60 * 1000;

const answerOf = ({ owner: _owner, ...rest }: EndpointView): EndpointAnswer => rest;

export class WebhookManagement {
  private readonly registrations: FixedWindowCounter;

  constructor(private readonly options: ManagementOptions) {
    this.registrations = new FixedWindowCounter(HOUR_MS, options.clock);
  }

  /** Step 1 of an address proof. @throws WebhookError, DomainError INVALID_ADDRESS */
  async challenge(params: Params): Promise<AddressChallenge> {
    const request = parseChallengeRequest(params);
    const url = parseEndpointUrl(request.url, this.options.settings).href;
    const { key } = await this.options.addressProofs();
    return issueAddressChallenge(key, { address: request.address, url, now: this.options.clock(), networkId: this.options.networkId });
  }

  /**
   * Registers an endpoint: under the caller's token, or a new one.
   * @throws WebhookError (the registry's, `INVALID_WEBHOOK_REQUEST`, `ADDRESS_PROOF_REQUIRED`, `WEBHOOK_REGISTRATIONS_RATE_LIMITED`),
   *   DomainError (an address proof's: INVALID_ADDRESS, INVALID_MESSAGE, INVALID_SIGNATURE, EXPIRED_CHALLENGE, CHALLENGE_REPLAYED)
   */
  async register(params: Params, caller: Caller): Promise<RegistrationAnswer> {
    this.countRegistration(caller.clientKey);
    const { settings } = this.options;
    const request = parseRegistration(params, { maxSubjects: settings.maxSubjectsPerEndpoint, maxTypes: settings.maxTypesPerEndpoint });
    const url = parseEndpointUrl(request.url, settings).href;
    const proven = await this.provenCredentials(request.subjects, request.addressProofs, url);
    const token = caller.owner === undefined ? generateManagementToken() : undefined;
    const owner = caller.owner ?? ownerOfToken(token!);
    const { endpoint, secret } = await this.options.registry.register({
      owner,
      ...(proven.length > 0 ? { ownerProof: { paymentKeyHashes: proven } } : {}),
      url,
      subjects: request.subjects,
      types: request.types,
      ...(request.description !== undefined ? { description: request.description } : {}),
    });
    return { ...answerOf(endpoint), secret, ...(token !== undefined ? { managementToken: token } : {}) };
  }

  /** The caller's endpoints, oldest first. */
  async list(params: Params, caller: Caller): Promise<{ endpoints: EndpointAnswer[] }> {
    parseList(params);
    return { endpoints: (await this.options.registry.list(this.ownerOf(caller))).map(answerOf) };
  }

  async get(params: Params, caller: Caller): Promise<EndpointAnswer> {
    return answerOf(await this.managed(parseNoBody(params), caller));
  }

  /** Deletes the endpoint with its queued and dead deliveries. */
  async delete(params: Params, caller: Caller): Promise<{ id: string; deleted: true }> {
    const id = parseNoBody(params);
    const owner = await this.managedOwner(id, caller);
    await this.options.registry.delete(owner, id);
    return { id, deleted: true };
  }

  /** A new secret, shown once; the previous one signs alongside it for `secretGraceMs`. */
  async rotateSecret(params: Params, caller: Caller): Promise<{ id: string; secret: string; previousSecretValidUntil: number }> {
    const id = parseNoBody(params);
    const { secret, previousValidUntil } = await this.options.registry.rotateSecret(await this.managedOwner(id, caller), id);
    return { id, secret, previousSecretValidUntil: previousValidUntil };
  }

  /** Enables a disabled endpoint (from the log's newest event on). */
  async enable(params: Params, caller: Caller): Promise<EndpointAnswer> {
    const id = parseNoBody(params);
    return answerOf(await this.options.registry.enable(await this.managedOwner(id, caller), id));
  }

  /** A page of the endpoint's dead letters, in log order. */
  async deadLetters(params: Params, caller: Caller): Promise<DeadLetterPage> {
    const query = parseDeadLetterQuery(params, this.options.settings.deadLetterPageMax);
    await this.managedOwner(query.id, caller);
    return this.options.queue.deadLetters(query.id, query.limit, query.after);
  }

  /** Queues the endpoint's events again from an event id (at most `replayMaxEvents` a call; `continueFrom` says where to go on). */
  async replay(params: Params, caller: Caller): Promise<ReplayResult> {
    const { id, fromEventId } = parseReplay(params);
    const owner = await this.managedOwner(id, caller);
    // events from before the oldest kept are gone: a replay would skip them unseen ("0": from the oldest kept)
    const oldest = fromEventId === "0" ? undefined : await this.options.events?.oldest?.();
    if (oldest !== undefined && compareEventIds(fromEventId, oldest) < 0)
      webhookError(
        "EVENTS_EXPIRED",
        `Event ${fromEventId} is no longer kept: the log keeps ${this.options.retentionDays ?? "a limited number of"} days of events ` +
          `(EVENTS_RETENTION_DAYS) and its oldest is ${oldest}. Replay from ${oldest} or later.`,
        { fromEventId, oldestId: oldest },
      );
    return this.options.dispatcher.replay(owner, id, fromEventId);
  }

  /** @throws WebhookError `WEBHOOK_TOKEN_REQUIRED` */
  private ownerOf(caller: Caller): string {
    if (!isTokenOwner(caller.owner))
      webhookError(
        "WEBHOOK_TOKEN_REQUIRED",
        "This route needs `Authorization: Bearer <management token>` (the registration's managementToken).",
      );
    return caller.owner;
  }

  /** The endpoint, when the caller's token manages it. @throws `WEBHOOK_TOKEN_REQUIRED`, `WEBHOOK_TOKEN_REJECTED`, `WEBHOOK_ENDPOINT_NOT_FOUND` */
  private async managed(id: string, caller: Caller): Promise<EndpointView> {
    const owner = this.ownerOf(caller);
    try {
      return await this.options.registry.get(owner, id);
    } catch (err) {
      if ((err as WebhookError).type === "WEBHOOK_ENDPOINT_NOT_FOUND" && (await this.options.registry.exists(id)))
        webhookError("WEBHOOK_TOKEN_REJECTED", "This management token does not manage this endpoint.", { id });
      throw err;
    }
  }

  private async managedOwner(id: string, caller: Caller): Promise<string> {
    return (await this.managed(id, caller)).owner;
  }

  /** Counts a registration attempt of the client. @throws WebhookError `WEBHOOK_REGISTRATIONS_RATE_LIMITED` */
  private countRegistration(clientKey: string | undefined): void {
    const limit = this.options.registrationsPerHour;
    if (limit <= 0) return;
    const { count, resetsInMs } = this.registrations.add(clientKey ?? "unknown");
    if (count > limit)
      webhookError(
        "WEBHOOK_REGISTRATIONS_RATE_LIMITED",
        `A client registers at most ${limit} webhook endpoints an hour; try again later.`,
        {
          limit,
          retryAfterSeconds: Math.max(1, Math.ceil(resetsInMs / 1000)),
        },
      );
  }

  /**
   * The payment key hashes the proofs show control of, when every `address:` subject is among them. The proofs are
   * matched to the subjects before any is verified, so a request refused for its shape uses up no challenge.
   * @throws WebhookError `ADDRESS_PROOF_REQUIRED`, `INVALID_WEBHOOK_REQUEST` (a proof for no subject); DomainError of a proof
   */
  private async provenCredentials(subjects: readonly string[], proofs: readonly AddressProof[], url: string): Promise<string[]> {
    const { networkId } = this.options;
    const wanted = new Map<string, string>(); // payment key hash → a subject naming it
    for (const s of subjects) if (s.startsWith("address:")) wanted.set(subjectCredential(s, networkId), s);
    if (wanted.size === 0 && proofs.length === 0) return [];
    const claimed = proofs.map((p, i) => {
      const credential = proofCredential(p, networkId, i);
      if (!wanted.has(credential))
        webhookError("INVALID_WEBHOOK_REQUEST", `addressProofs[${i}]: proves an address that no subject names.`, {
          field: `addressProofs[${i}]`,
        });
      return credential;
    });
    for (const [credential, subject] of wanted)
      if (!claimed.includes(credential))
        webhookError(
          "ADDRESS_PROOF_REQUIRED",
          `addressProofs: ${subject.slice(0, 120)} needs a proof that you control the address: sign the message of POST /webhooks/challenge { address, url } with the wallet (CIP-30 signData) and send it in addressProofs.`,
          { field: "addressProofs", subject },
        );
    const deps = { ...(await this.options.addressProofs()), now: this.options.clock(), networkId };
    for (const proof of proofs) await verifyAddressProof(proof, url, deps);
    return [...new Set(claimed)];
  }
}
