/**
 * The published NATS contract (shared/records/published-events.ts), its AsyncAPI document (shared/gateway/asyncapi.ts)
 * and its publisher (shared/mesh/chain-event-publisher.ts), without a NATS server.
 *
 * The document is validated against the AsyncAPI 3.0.0 JSON Schema of the AsyncAPI Initiative (`@asyncapi/specs`,
 * Apache-2.0, a devDependency; formats not checked), and structurally against the rules that matter here (every
 * reference resolves, operations point at their channel's messages, payload schemas compile and the examples match
 * them).
 */
import Ajv from "ajv";
import { expect } from "chai";
import { Transporters, type Logger, type ServiceBroker } from "moleculer";
import asyncApi300Schema from "@asyncapi/specs/schemas/3.0.0-without-$id.json";
import { buildAsyncApiDocument } from "../../../shared/gateway/asyncapi";
import { chainEventPublisher } from "../../../shared/mesh/chain-event-publisher";
import { EVENT_TYPES, eventSchema, type PublicEvent } from "../../../shared/events/event-types";
import { extensionRebuilt, receiptsCheckpointed, transactionSubmitted } from "../../../shared/events/service-events";
import { eventLogPublisher } from "../../../shared/mesh/event-log-publisher";
import {
  eventLogSubject,
  PUBLISHED_EVENTS,
  publishedChainSubjects,
  publishedEventLogSubjects,
  publishedSubject,
} from "../../../shared/records/published-events";

type Json = Record<string, unknown>;

/** The node a local `$ref` (`#/a/b`) names in `doc`, or undefined. */
function resolve(doc: Json, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  return ref
    .slice(2)
    .split("/")
    .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce<unknown>((node, key) => (node !== null && typeof node === "object" ? (node as Json)[key] : undefined), doc);
}

/** Every `$ref` value anywhere in `node`. */
function refsIn(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refsIn);
  if (node === null || typeof node !== "object") return [];
  return Object.entries(node as Json).flatMap(([k, v]) => (k === "$ref" && typeof v === "string" ? [v] : refsIn(v)));
}

/** Does a NATS subject match a subscription pattern (`*` one token, `>` the rest)? */
function matches(pattern: string, subject: string): boolean {
  const p = pattern.split(".");
  const s = subject.split(".");
  for (let i = 0; i < p.length; i++) {
    if (p[i] === ">") return s.length > i;
    if (p[i] !== "*" && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

describe("published NATS contract: the AsyncAPI document", function () {
  const namespace = "cert-anchor";
  const doc = buildAsyncApiDocument({ title: "cert-anchor chain events", version: "1.2.3", namespace });
  const channels = doc["channels"] as Record<string, Json>;
  const operations = doc["operations"] as Record<string, Json>;

  it("is valid against the AsyncAPI 3.0.0 JSON Schema; a document without info or with a numeric address is not", () => {
    const validate = new Ajv({ strict: false, allErrors: true, validateFormats: false, logger: false }).compile(asyncApi300Schema);
    expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 3))).to.equal(true);
    const withoutInfo = structuredClone(doc);
    delete withoutInfo["info"];
    expect(validate(withoutInfo)).to.equal(false);
    const numericAddress = structuredClone(doc);
    Object.values(numericAddress["channels"] as Record<string, Json>)[0]!["address"] = 42;
    expect(validate(numericAddress)).to.equal(false);
  });

  it("is an AsyncAPI 3.0.0 document whose every reference resolves", () => {
    expect(doc["asyncapi"]).to.equal("3.0.0");
    expect(doc["info"]).to.deep.include({ title: "cert-anchor chain events", version: "1.2.3" });
    const refs = refsIn(doc);
    expect(refs.length).to.be.greaterThan(PUBLISHED_EVENTS.length * 3);
    expect(refs.filter((ref) => resolve(doc, ref) === undefined)).to.deep.equal([]);
  });

  it("has one channel per published event at its subject under the namespace, each sent by one operation", () => {
    expect(Object.values(channels).map((c) => c["address"])).to.deep.equal([
      ...PUBLISHED_EVENTS.map((e) => `${namespace}.${e.event}`),
      ...EVENT_TYPES.map((type) => `${namespace}.events.${type}`),
    ]);
    expect(Object.values(channels).map((c) => c["address"])).to.deep.equal([
      ...PUBLISHED_EVENTS.map((e) => publishedSubject(namespace, e.event)),
      ...EVENT_TYPES.map((type) => eventLogSubject(namespace, type)),
    ]);
    for (const address of Object.values(channels).map((c) => String(c["address"])))
      expect(
        matches(publishedChainSubjects(namespace), address) || matches(publishedEventLogSubjects(namespace), address),
        address,
      ).to.equal(true);
    for (const [id, op] of Object.entries(operations)) {
      expect(op["action"], id).to.equal("send");
      const channelRef = (op["channel"] as Json)["$ref"] as string;
      expect(channelRef, id).to.match(/^#\/channels\/[^/]+$/);
      // AsyncAPI 3.0: an operation's messages are messages of its channel
      for (const m of op["messages"] as Json[]) expect(m["$ref"], id).to.match(new RegExp(`^${channelRef}/messages/[^/]+$`));
    }
    expect(Object.values(operations).map((op) => (op["channel"] as Json)["$ref"])).to.deep.equal(
      Object.keys(channels).map((id) => `#/channels/${id}`),
    );
  });

  it("gives every message a JSON payload schema that compiles, and its examples (the chain events') valid against it with exactly its fields", () => {
    const ajv = new Ajv({ allErrors: true });
    const messages = (doc["components"] as Json)["messages"] as Record<string, Json>;
    expect(Object.keys(messages)).to.have.length(PUBLISHED_EVENTS.length + EVENT_TYPES.length);
    for (const [name, message] of Object.entries(messages)) {
      expect(message["contentType"], name).to.equal("application/json");
      const schema = resolve(doc, (message["payload"] as Json)["$ref"] as string) as Json;
      const validate = ajv.compile(schema);
      for (const example of (message["examples"] ?? []) as { payload: Json }[]) {
        expect(validate(example.payload), `${name}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
        expect(Object.keys(example.payload).sort(), name).to.deep.equal([...(schema["required"] as string[])].sort());
        expect(Object.keys(schema["properties"] as Json).sort(), name).to.deep.equal([...(schema["required"] as string[])].sort());
      }
    }
  });

  it("refuses what the contract does not allow: an uppercase block id, a fractional slot, a missing lastSeq", () => {
    const ajv = new Ajv({ allErrors: true });
    const [block, rollback] = PUBLISHED_EVENTS;
    const validBlock = ajv.compile(block.schema);
    const validRollback = ajv.compile(rollback.schema);
    expect(validBlock(block.example)).to.equal(true);
    expect(validBlock({ ...block.example, id: block.example.id.toUpperCase() })).to.equal(false);
    expect(validBlock({ ...block.example, slot: 1.5 })).to.equal(false);
    const { lastSeq: _lastSeq, ...withoutSeq } = block.example;
    expect(validBlock(withoutSeq)).to.equal(false);
    expect(validRollback({ slot: -1, id: "origin", lastSeq: 3 })).to.equal(true);
    expect(validRollback({ slot: -2, id: "origin", lastSeq: 3 })).to.equal(false);
    expect(validRollback({ slot: 10, id: "genesis", lastSeq: 3 })).to.equal(false);
  });
});

describe("published NATS contract: the event log's messages", function () {
  const doc = buildAsyncApiDocument({ title: "t", version: "1", namespace: "ns" });
  const schemaOf = (type: string): Json => {
    const channel = Object.values(doc["channels"] as Record<string, Json>).find((c) => c["address"] === `ns.events.${type}`)!;
    const message = resolve(doc, Object.values(channel["messages"] as Record<string, { $ref: string }>)[0]!.$ref) as Json;
    return resolve(doc, (message["payload"] as Json)["$ref"] as string) as Json;
  };
  const stored = <T extends PublicEvent>(e: Omit<T, "id"> & { key: string }, id: string): PublicEvent => {
    const { key: _key, ...rest } = e;
    return { id, ...rest } as PublicEvent;
  };
  const tx = "ab".repeat(32);

  it("serves, per event type, the schema generated from shared/events/event-types.ts", () => {
    for (const type of EVENT_TYPES) expect(schemaOf(type), type).to.deep.equal(eventSchema(type));
  });

  it("accepts the events the services build, as the log stores them, and refuses another type, an uppercase hash or a missing field", () => {
    const ajv = new Ajv({ allErrors: true });
    const events = [
      stored(transactionSubmitted(tx, 1_771_000_000_000, 1_771_000_000_000), "1"),
      stored(transactionSubmitted(tx, null, 1_771_000_000_000), "2"),
      ...receiptsCheckpointed([{ request: "0a".repeat(12), from: 0, to: 3 }], 7, { size: 10, root: "cd".repeat(32) }, 1).map((e) =>
        stored(e, "3"),
      ),
      stored(
        extensionRebuilt(
          "fractionized",
          { policyId: "12".repeat(28), previousTransactionHash: tx, transactionHash: "ef".repeat(32), unsignedTransaction: "84a400" },
          5,
        ),
        "4",
      ),
    ];
    for (const e of events) {
      const validate = ajv.compile(schemaOf(e.type));
      expect(validate(e), `${e.type}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
    }
    const submitted = ajv.compile(schemaOf("transaction.submitted"));
    const [first] = events;
    expect(submitted({ ...first, type: "transaction.confirmed" })).to.equal(false);
    expect(submitted({ ...first, data: { ...first!.data, transactionHash: tx.toUpperCase() } })).to.equal(false);
    expect(submitted({ ...first, subjects: ["transaction:" + tx.toUpperCase()] })).to.equal(false);
    const { block: _block, ...withoutBlock } = first!;
    expect(submitted(withoutBlock)).to.equal(false);
    expect(submitted({ ...first, id: "0" })).to.equal(false);
  });
});

describe("published NATS contract: the events service's publisher", function () {
  it("publishes a stored event as its plain JSON on <namespace>.events.<type>; nothing without a NATS transporter", () => {
    const sent: { subject: string; payload: unknown }[] = [];
    const tx = new Transporters.NATS("nats://127.0.0.1:4222");
    (tx as unknown as { client: unknown }).client = {
      publish: (subject: string, data: Uint8Array) => void sent.push({ subject, payload: JSON.parse(new TextDecoder().decode(data)) }),
    };
    const quiet = { info: () => undefined, warn: () => undefined } as unknown as Logger;
    const publish = eventLogPublisher({ transit: { tx } } as unknown as ServiceBroker, "ns-4", quiet);
    const { key: _key, ...event } = transactionSubmitted("ab".repeat(32), null, 0);
    publish?.({ id: "12", ...event });
    expect(sent).to.deep.equal([{ subject: "ns-4.events.transaction.submitted", payload: { id: "12", ...event } }]);
    expect(eventLogPublisher({} as ServiceBroker, "ns", quiet)).to.equal(undefined);
  });
});

describe("published NATS contract: the indexer's publisher", function () {
  interface Logged {
    level: "info" | "warn";
    message: string;
  }
  const loggerOf = (logged: Logged[]): Logger =>
    ({
      info: (message: string) => void logged.push({ level: "info", message }),
      warn: (message: string) => void logged.push({ level: "warn", message }),
    }) as unknown as Logger;
  /** A broker whose transporter is Moleculer's NATS transporter, with `client` standing in for its connection. */
  const brokerWith = (client: unknown): ServiceBroker => {
    const tx = new Transporters.NATS("nats://127.0.0.1:4222");
    (tx as unknown as { client: unknown }).client = client;
    return { transit: { tx } } as unknown as ServiceBroker;
  };

  it("publishes chain.block and chain.rollback as plain JSON on <namespace>.<event>, and nothing else", () => {
    const sent: { subject: string; payload: unknown }[] = [];
    const client = {
      publish: (subject: string, data: Uint8Array) => void sent.push({ subject, payload: JSON.parse(new TextDecoder().decode(data)) }),
    };
    const publisher = chainEventPublisher(brokerWith(client), "ns-1", loggerOf([]));
    const [block, rollback] = PUBLISHED_EVENTS;
    publisher?.publish("chain.block", block.example);
    publisher?.publish("protocol.certificate.issued", { hash: "ab" });
    publisher?.publish("chain.rollback", rollback.example);
    expect(sent).to.deep.equal([
      { subject: "ns-1.chain.block", payload: block.example },
      { subject: "ns-1.chain.rollback", payload: rollback.example },
    ]);
  });

  it("never throws: a refused publication is logged once per run of failures, and counted when publishing works again", () => {
    const logged: Logged[] = [];
    let refuse = true;
    const sent: string[] = [];
    const client = {
      publish: (subject: string) => {
        if (refuse) throw new Error("CONNECTION_CLOSED");
        sent.push(subject);
      },
    };
    const publisher = chainEventPublisher(brokerWith(client), "ns-2", loggerOf(logged));
    const [block] = PUBLISHED_EVENTS;
    for (let i = 0; i < 3; i++) expect(() => publisher?.publish("chain.block", block.example)).to.not.throw();
    refuse = false;
    publisher?.publish("chain.block", block.example);
    expect(sent).to.deep.equal(["ns-2.chain.block"]);
    expect(logged.map((l) => l.level)).to.deep.equal(["warn", "info"]);
    expect(logged[0]?.message).to.contain("ns-2.chain.block");
    expect(logged[1]?.message).to.contain("3 were not published");
  });

  it("does not throw before the transporter has connected (no client yet)", () => {
    const logged: Logged[] = [];
    const publisher = chainEventPublisher(brokerWith(null), "ns-3", loggerOf(logged));
    expect(() => publisher?.publish("chain.block", PUBLISHED_EVENTS[0].example)).to.not.throw();
    expect(logged.map((l) => l.level)).to.deep.equal(["warn"]);
  });

  it("is absent without a NATS transporter: embedded mode publishes nothing", () => {
    expect(chainEventPublisher({} as ServiceBroker, "ns", loggerOf([]))).to.equal(undefined);
    expect(chainEventPublisher({ transit: { tx: {} } } as unknown as ServiceBroker, "ns", loggerOf([]))).to.equal(undefined);
  });
});
