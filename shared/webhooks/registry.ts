/**
 * The registered endpoints (`webhook_endpoints`): what each caller wants delivered where, and the secret its
 * messages are signed with. Invariants:
 * - a secret is returned once, by `register` or `rotateSecret`; every other answer is an `EndpointView`, which has
 *   no secret. The engine logs nothing, so no secret reaches a log from here;
 * - an endpoint's URL passed the SSRF guard when it was registered (and is checked again at every attempt);
 * - the bounds hold under concurrent registrations: a registration is inserted, then counted, and withdrawn when it
 *   went over (two racing registrations may both be refused, none is kept beyond the bound);
 * - every operation is scoped to an owner: another owner's endpoint answers `WEBHOOK_ENDPOINT_NOT_FOUND`.
 * Who may register what is management.ts's (docs/webhooks.md#who-may-do-what): `owner` is the SHA-256 of the
 * endpoint's management token, `ownerProof` the payment key hashes an address proof showed control of.
 */
import { randomBytes } from "node:crypto";
import { openCollection, type Collection, type Store, type Value } from "../store";
import { DELIVERIES, ENDPOINTS, type DeliveryDocument, type EndpointDocument, type EndpointStatus } from "./collections";
import { parseEndpointUrl, resolveEndpoint, type HostLookup } from "./endpoint-url";
import { webhookError } from "./errors";
import type { EventSource } from "./event-source";
import type { WebhookSettings } from "./settings";
import { generateSecret } from "./signature";

/** What a caller registers. */
export interface EndpointInput {
  owner: string;
  ownerProof?: Value;
  url: string;
  /** At least one `<kind>:<value>`; an event with any of them is delivered. */
  subjects: readonly string[];
  /** Event types delivered (empty or absent: every type). */
  types?: readonly string[];
  description?: string;
}

/** An endpoint as answered to its owner: never the secret. */
export interface EndpointView {
  id: string;
  owner: string;
  url: string;
  description?: string;
  subjects: string[];
  types: string[];
  status: EndpointStatus;
  disabledAt?: number;
  disabledReason?: string;
  consecutiveFailures: number;
  /** The last event id enqueued for it. */
  cursor?: string;
  createdAt: number;
  updatedAt: number;
  /** When the secret was last rotated (or made). */
  secretCreatedAt: number;
}

export interface RegisteredEndpoint {
  endpoint: EndpointView;
  /** Shown once: store it now. */
  secret: string;
}

export interface RotatedSecret {
  secret: string;
  /** Until when the previous secret keeps signing too (Unix ms). */
  previousValidUntil: number;
}

/** What the deliverer needs to send to an endpoint. */
export interface SigningTarget {
  url: string;
  status: EndpointStatus;
  /** Secrets in force, current first. */
  secrets: string[];
}

const MAX_OWNER_LENGTH = 256;
const MAX_DESCRIPTION_LENGTH = 256;
const MAX_SECRETS_KEPT = 3;
const SUBJECT_VALUE = /^[A-Za-z0-9_.~-]{1,256}$/;
const EVENT_TYPE = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;
const MAX_TYPE_LENGTH = 128;

export interface RegistryOptions {
  source: Pick<EventSource, "latest">;
  settings: WebhookSettings;
  /** Unix ms. */
  clock: () => number;
  /** DNS for the registration's address check (default: the system's). */
  lookup?: HostLookup;
}

function viewOf(d: EndpointDocument): EndpointView {
  return {
    id: d._id,
    owner: d.owner,
    url: d.url,
    ...(d.description !== undefined ? { description: d.description } : {}),
    subjects: d.subjects,
    types: d.types,
    status: d.status,
    ...(d.disabledAt !== undefined ? { disabledAt: d.disabledAt } : {}),
    ...(d.disabledReason !== undefined ? { disabledReason: d.disabledReason } : {}),
    consecutiveFailures: d.consecutiveFailures,
    ...(d.cursor !== undefined ? { cursor: d.cursor } : {}),
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    secretCreatedAt: d.secrets[0]?.createdAt ?? d.createdAt,
  };
}

export class WebhookRegistry {
  private constructor(
    private readonly endpoints: Collection<EndpointDocument>,
    private readonly deliveries: Collection<DeliveryDocument>,
    private readonly options: RegistryOptions,
  ) {}

  static async open(store: Store, options: RegistryOptions): Promise<WebhookRegistry> {
    return new WebhookRegistry(await openCollection(store, ENDPOINTS), await openCollection(store, DELIVERIES), options);
  }

  private get settings(): WebhookSettings {
    return this.options.settings;
  }

  /**
   * Registers an endpoint; it receives the matching events appended to the log from now on.
   * @returns the endpoint and its secret, shown this once
   * @throws WebhookError `INVALID_ENDPOINT_URL`, `ENDPOINT_ADDRESS_REFUSED`, `INVALID_WEBHOOK_FILTER`, `WEBHOOK_LIMIT_REACHED`
   */
  async register(input: EndpointInput): Promise<RegisteredEndpoint> {
    const owner = this.checkOwner(input.owner);
    const endpoint = parseEndpointUrl(input.url, this.settings);
    await resolveEndpoint(endpoint, this.settings, this.options.lookup);
    const subjects = this.checkSubjects(input.subjects);
    const types = this.checkTypes(input.types ?? []);
    if (input.description !== undefined && (typeof input.description !== "string" || input.description.length > MAX_DESCRIPTION_LENGTH))
      webhookError("INVALID_WEBHOOK_FILTER", `A description is a string of at most ${MAX_DESCRIPTION_LENGTH} characters.`);
    const cursor = await this.options.source.latest();
    const now = this.options.clock();
    const secret = generateSecret();
    const doc: EndpointDocument = {
      _id: `ep_${randomBytes(16).toString("hex")}`,
      owner,
      ...(input.ownerProof !== undefined ? { ownerProof: input.ownerProof } : {}),
      url: endpoint.href,
      ...(input.description !== undefined ? { description: input.description } : {}),
      subjects,
      types,
      secrets: [{ secret, createdAt: now }],
      status: "active",
      consecutiveFailures: 0,
      ...(cursor !== undefined ? { cursor } : {}),
      replays: 0,
      createdAt: now,
      updatedAt: now,
    };
    await this.endpoints.insertOne(doc);
    const [total, mine] = await Promise.all([this.endpoints.count(), this.endpoints.count({ owner })]);
    if (total > this.settings.maxEndpoints || mine > this.settings.maxEndpointsPerOwner) {
      await this.endpoints.deleteOne({ _id: doc._id });
      webhookError(
        "WEBHOOK_LIMIT_REACHED",
        mine > this.settings.maxEndpointsPerOwner
          ? `An owner registers at most ${this.settings.maxEndpointsPerOwner} endpoints.`
          : `This service holds at most ${this.settings.maxEndpoints} endpoints.`,
        { maxEndpoints: this.settings.maxEndpoints, maxEndpointsPerOwner: this.settings.maxEndpointsPerOwner },
      );
    }
    return { endpoint: viewOf(doc), secret };
  }

  /** The owner's endpoints, oldest first. */
  async list(owner: string): Promise<EndpointView[]> {
    const docs = await this.endpoints.find({ owner }, { sort: { createdAt: 1 } });
    return docs.map(viewOf);
  }

  /** @throws WebhookError `WEBHOOK_ENDPOINT_NOT_FOUND` */
  async get(owner: string, id: string): Promise<EndpointView> {
    return viewOf(await this.expectOwned(owner, id));
  }

  /** Whether an endpoint has this id, whoever owns it (to tell a token that manages another endpoint from an unknown id). */
  async exists(id: string): Promise<boolean> {
    return (await this.endpoints.count({ _id: id })) > 0;
  }

  /** Deletes the endpoint and every delivery queued for it (pending, delivered and dead). @throws `WEBHOOK_ENDPOINT_NOT_FOUND` */
  async delete(owner: string, id: string): Promise<void> {
    if ((await this.endpoints.deleteOne({ _id: id, owner })) === 0) this.notFound(id);
    await this.deliveries.deleteMany({ endpointId: id });
  }

  /**
   * A new secret for the endpoint; the previous one keeps signing alongside it for `secretGraceMs` (the spec's
   * several signatures), so receivers can switch without losing a message. At most three secrets are kept.
   * @throws WebhookError `WEBHOOK_ENDPOINT_NOT_FOUND`
   */
  async rotateSecret(owner: string, id: string): Promise<RotatedSecret> {
    const doc = await this.expectOwned(owner, id);
    const now = this.options.clock();
    const previousValidUntil = now + this.settings.secretGraceMs;
    const secret = generateSecret();
    const kept = doc.secrets
      .filter((s) => s.expiresAt === undefined || s.expiresAt > now)
      .map((s) => ({ ...s, expiresAt: Math.min(s.expiresAt ?? previousValidUntil, previousValidUntil) }));
    const secrets = [{ secret, createdAt: now }, ...kept].slice(0, MAX_SECRETS_KEPT);
    const updated = await this.endpoints.updateOne({ _id: id, owner }, { $set: { secrets, updatedAt: now } });
    if (updated.matchedCount === 0) this.notFound(id);
    return { secret, previousValidUntil };
  }

  /**
   * Makes a disabled endpoint active again, with its failure count reset; it receives the events appended from now
   * on (replay recovers the ones in between). An active endpoint is left as it is.
   * @throws WebhookError `WEBHOOK_ENDPOINT_NOT_FOUND`
   */
  async enable(owner: string, id: string): Promise<EndpointView> {
    const current = await this.expectOwned(owner, id);
    if (current.status === "active") return viewOf(current); // its cursor must not jump over events not yet dispatched
    const cursor = await this.options.source.latest();
    const doc = await this.endpoints.findOneAndUpdate(
      { _id: id, owner, status: "disabled" },
      {
        $set: { status: "active", consecutiveFailures: 0, updatedAt: this.options.clock(), ...(cursor !== undefined ? { cursor } : {}) },
        $unset: { disabledAt: true, disabledReason: true },
      },
    );
    return doc === undefined ? this.get(owner, id) : viewOf(doc); // undefined: enabled (or deleted) meanwhile
  }

  /** For the deliverer: the URL, status and secrets in force of an endpoint, or undefined when it is gone. */
  async signingTarget(id: string): Promise<SigningTarget | undefined> {
    const doc = await this.endpoints.findOne({ _id: id });
    if (doc === undefined) return undefined;
    const now = this.options.clock();
    const secrets = doc.secrets.filter((s) => s.expiresAt === undefined || s.expiresAt > now).map((s) => s.secret);
    return { url: doc.url, status: doc.status, secrets };
  }

  private async expectOwned(owner: string, id: string): Promise<EndpointDocument> {
    return (await this.endpoints.findOne({ _id: id, owner })) ?? this.notFound(id);
  }

  private notFound(id: string): never {
    return webhookError("WEBHOOK_ENDPOINT_NOT_FOUND", "No such webhook endpoint.", { id });
  }

  private checkOwner(owner: unknown): string {
    if (typeof owner !== "string" || owner.length === 0 || owner.length > MAX_OWNER_LENGTH)
      webhookError("INVALID_WEBHOOK_FILTER", `An owner is a string of 1 to ${MAX_OWNER_LENGTH} characters.`);
    return owner;
  }

  private checkSubjects(subjects: readonly unknown[]): string[] {
    const max = this.settings.maxSubjectsPerEndpoint;
    if (!Array.isArray(subjects) || subjects.length === 0 || subjects.length > max)
      webhookError("INVALID_WEBHOOK_FILTER", `An endpoint filters on 1 to ${max} subjects.`, { max });
    for (const subject of subjects) {
      const colon = typeof subject === "string" ? subject.indexOf(":") : -1;
      const kind = colon > 0 ? (subject as string).slice(0, colon) : "";
      if (!this.settings.subjectKinds.includes(kind) || !SUBJECT_VALUE.test((subject as string).slice(colon + 1)))
        webhookError("INVALID_WEBHOOK_FILTER", `A subject is <kind>:<value> with a kind among ${this.settings.subjectKinds.join(", ")}.`, {
          subject: typeof subject === "string" ? subject.slice(0, 300) : null,
        });
    }
    return [...new Set(subjects as string[])];
  }

  private checkTypes(types: readonly unknown[]): string[] {
    const max = this.settings.maxTypesPerEndpoint;
    if (!Array.isArray(types) || types.length > max)
      webhookError("INVALID_WEBHOOK_FILTER", `An endpoint filters on at most ${max} event types.`, { max });
    for (const type of types)
      if (typeof type !== "string" || type.length > MAX_TYPE_LENGTH || !EVENT_TYPE.test(type))
        webhookError("INVALID_WEBHOOK_FILTER", "An event type is full-stop delimited identifiers of A-Z a-z 0-9 _.", {
          type: typeof type === "string" ? type.slice(0, 200) : null,
        });
    return [...new Set(types as string[])];
  }
}
