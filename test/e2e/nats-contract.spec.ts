/**
 * The published NATS contract end to end (docs/nats-contract.md): a real nats-server, the devnet as its own process,
 * the indexer (with the events service and what issuance needs: tx-builder, submitter, verifier, library) and the
 * gateway as two `npm start` processes in scale mode, and outside services that speak plain NATS
 * (the `nats` package, no Moleculer). They subscribe to `<NAMESPACE>.chain.block` and `<NAMESPACE>.chain.rollback`
 * and receive the devnet's blocks and a rollback in chain order, each payload valid against the schema the gateway
 * serves in `/api/v1/asyncapi.json`. Then one of them is down while blocks go by and catches up the way the contract
 * says: subscribe again, re-read the chain from the last block point it saw (Ogmios chain-sync), and join the live
 * events; it ends with the same chain as a subscriber that never went away. Last, the protocol is deployed through
 * the services and a certificate issued over the HTTP API: the public event log's events of it arrive on
 * `<NAMESPACE>.events.<type>` (`transaction.submitted`, `certificate.anchored`, `transaction.confirmed`), each valid
 * against the served schema and the same JSON the SSE stream serves.
 */
import Ajv, { type ValidateFunction } from "ajv";
import { expect } from "chai";
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServiceBroker } from "moleculer";
import { connect, type NatsConnection } from "nats";
import WebSocket from "ws";
import { createBrokerOptions } from "../../moleculer.config";
import { IssuingWallet } from "../../fixtures/faults/issuing-wallet";
import { startDevnetProcess } from "../../fixtures/processes/devnet-process";
import { requireNatsServer, startNatsServer, type NatsServerHandle } from "../../fixtures/processes/nats-server";
import { startServiceProcess, type ServiceProcess } from "../../fixtures/processes/service-process";
import { http, pollUntil, testConfig } from "../../fixtures/mesh/helpers";
import { createChainClient, type ChainClient } from "../../shared/chain";
import { buildPayment } from "../../shared/csl";
import { deployDefaultProtocol } from "../../shared/first-start/devnet-first-start";
import { devnetProtocolConfig, serviceGenesisFunds } from "../../shared/first-start/devnet-deployment";
import { createStore, type Store } from "../../shared/store";
import { generateMnemonic, Wallet } from "../../shared/wallet";

type Json = Record<string, unknown>;

/** A published event as an outside service receives it: the subject and the plain JSON payload. */
interface Received {
  subject: string;
  payload: Json;
}

interface BlockSeen {
  id: string;
  slot: number;
  height: number;
  transactionIds: string[];
}

/** Subscribes to both published subjects; callbacks run in the order the connection receives the messages. */
function follow(nc: NatsConnection, namespace: string): Received[] {
  const received: Received[] = [];
  for (const event of ["chain.block", "chain.rollback"]) {
    nc.subscribe(`${namespace}.${event}`, {
      callback: (err, msg) => void (err === null ? received.push({ subject: msg.subject, payload: msg.json<Json>() }) : undefined),
    });
  }
  return received;
}

/** The chain a subscriber holds after applying its events in order: blocks appended, rollbacks cutting back. */
function chainOf(events: readonly Received[], namespace: string, from: BlockSeen[] = []): BlockSeen[] {
  const chain = [...from];
  for (const { subject, payload } of events) {
    if (subject === `${namespace}.chain.block`) chain.push(payload as unknown as BlockSeen);
    else {
      const id = payload["id"];
      const keep = id === "origin" ? 0 : chain.findIndex((b) => b.id === id) + 1;
      chain.length = keep;
    }
  }
  return chain;
}

/** Subscribes to every event-log subject (`<NAMESPACE>.events.>`), in the order the connection receives them. */
function followEventLog(nc: NatsConnection, namespace: string): Received[] {
  const received: Received[] = [];
  nc.subscribe(`${namespace}.events.>`, {
    callback: (err, msg) => void (err === null ? received.push({ subject: msg.subject, payload: msg.json<Json>() }) : undefined),
  });
  return received;
}

/** The events the SSE stream at `url` serves, up to the first that `last` accepts (node:http: fetch waits for the end). */
function sseEventsUntil(url: string, last: (event: Json) => boolean): Promise<Json[]> {
  return new Promise((resolve, reject) => {
    const events: Json[] = [];
    let buffered = "";
    const req = request(url, { headers: { Accept: "text/event-stream" } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`GET ${url}: ${res.statusCode}`));
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffered += chunk;
        for (let end = buffered.indexOf("\n\n"); end >= 0; end = buffered.indexOf("\n\n")) {
          const data = buffered
            .slice(0, end)
            .split("\n")
            .find((line) => line.startsWith("data: "));
          buffered = buffered.slice(end + 2);
          if (data === undefined) continue;
          const event = JSON.parse(data.slice("data: ".length)) as Json;
          events.push(event);
          if (last(event)) {
            req.destroy();
            return resolve(events);
          }
        }
      });
    });
    req.on("error", reject);
    req.end();
  });
}

/** One JSON-RPC call on the devnet's WebSocket (its test controls). */
async function devnetCall(url: string, method: string, params: unknown): Promise<unknown> {
  const ws = new WebSocket(url);
  try {
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    const reply = new Promise<string>((resolve) => ws.once("message", (data: Buffer) => resolve(data.toString())));
    ws.send(JSON.stringify({ jsonrpc: "2.0", method, params, id: 1 }));
    const answer = JSON.parse(await reply) as { result?: unknown; error?: unknown };
    if (answer.error !== undefined) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
    return answer.result;
  } finally {
    ws.close();
  }
}

describe("e2e: the published NATS contract, followed with a plain NATS client", function () {
  this.timeout(180_000);
  const wallet = Wallet.fromMnemonic(generateMnemonic());
  const payee = Wallet.fromMnemonic(generateMnemonic());
  /** the service wallet that deploys the protocol, and a user that issues a certificate */
  const service = Wallet.fromMnemonic(generateMnemonic());
  const issuer = Wallet.fromMnemonic(generateMnemonic());
  const namespace = `contract-${randomUUID()}`;
  const dirs: string[] = [];
  const processes: ServiceProcess[] = [];
  const connections: NatsConnection[] = [];
  let nats: NatsServerHandle | undefined;
  let devnet: { child: ChildProcess; url: string } | undefined;
  let client: ChainClient | undefined;
  let api = "";
  /** A subscriber that stays connected throughout: the reference. */
  let witness: Received[] = [];
  /** A subscriber that will be down for a while. */
  let follower: { nc: NatsConnection; received: Received[] };
  let validators: Record<string, ValidateFunction> = {};
  /** What a subscriber to `<NAMESPACE>.events.>` received from the start. */
  let eventLog: Received[] = [];
  let env: Record<string, string> = {};

  const tmp = (label: string): string => {
    const d = mkdtempSync(join(tmpdir(), `contract-${label}-`));
    dirs.push(d);
    return d;
  };
  const plainClient = async (): Promise<NatsConnection> => {
    const nc = await connect({ servers: nats!.url, name: "outside-service" });
    connections.push(nc);
    return nc;
  };
  const blocksIn = (events: readonly Received[]): BlockSeen[] =>
    events.filter((e) => e.subject === `${namespace}.chain.block`).map((e) => e.payload as unknown as BlockSeen);
  /** Pays the payee and waits until the witness hears of the block that carries the payment. */
  const payAndWait = async (): Promise<BlockSeen> => {
    const built = buildPayment({
      protocolParameters: await client!.protocolParameters(),
      utxos: await client!.utxosByAddresses([wallet.address]),
      changeAddress: wallet.address,
      outputs: [{ address: payee.address, lovelace: 2_000_000n }],
    });
    const txId = await client!.submit(wallet.signTxFull(built.cborHex));
    return pollUntil(async () => blocksIn(witness).find((b) => b.transactionIds.includes(txId)), `the block of ${txId}`, 30_000);
  };

  before(async function () {
    requireNatsServer(this);
    nats = await startNatsServer();
    devnet = await startDevnetProcess(
      [
        { address: wallet.address, lovelace: 1_000_000_000n },
        ...serviceGenesisFunds(service),
        { address: issuer.address, lovelace: 1_000_000_000n },
      ],
      { testControl: true },
    );
    client = createChainClient({ url: devnet.url });
    // subscribed before the indexer starts: every event it publishes is received
    witness = follow(await plainClient(), namespace);
    eventLog = followEventLog(await plainClient(), namespace);
    const followerConnection = await plainClient();
    follower = { nc: followerConnection, received: follow(followerConnection, namespace) };
    await Promise.all(connections.map((nc) => nc.flush()));

    const protocol = devnetProtocolConfig(service);
    env = {
      TRANSPORTER: nats.url,
      NAMESPACE: namespace,
      OGMIOS_URL: devnet.url,
      NETWORK: "devnet",
      HOST: "127.0.0.1",
      PROXY_TX_HASH: protocol.proxyOneShot.txHash,
      PROXY_OUTPUT_INDEX: String(protocol.proxyOneShot.index),
      SERVICE_KEY_HASH: protocol.serviceKeyHash,
      SERVICE_ADDRESS: service.address,
      RATE_LIMIT_POST_PER_MINUTE: "0",
      RATE_LIMIT_READ_PER_MINUTE: "0",
      ENABLE_METRICS: "false",
    };
    // the indexer with the services a certificate's issuance needs, and the events service that publishes the log
    const indexer = startServiceProcess({
      ...env,
      SERVICES: "indexer,events,tx-builder,submitter,verifier,library",
      DATA_DIR: tmp("indexer"),
      NODE_ID: "indexer",
    });
    const gateway = startServiceProcess({ ...env, SERVICES: "gateway", DATA_DIR: tmp("gateway"), NODE_ID: "gateway" });
    processes.push(indexer, gateway);
    api = (await gateway.waitFor(/"api":"(http:\/\/[^"\s]+\/api\/v1)"/))[1]!;
    await indexer.waitFor(/"mode":"scale/);

    // the schemas as an outside service gets them: from the served AsyncAPI document, by channel address
    const doc = (await http(`${api}/asyncapi.json`)).json as {
      channels: Record<string, { address: string; messages: Record<string, { $ref: string }> }>;
      components: { messages: Record<string, { payload: { $ref: string } }>; schemas: Record<string, Json> };
    };
    const ajv = new Ajv({ allErrors: true });
    const last = (ref: string): string => ref.split("/").pop()!;
    validators = Object.fromEntries(
      Object.values(doc.channels).map((channel) => {
        const [message] = Object.values(channel.messages);
        const schema = doc.components.schemas[last(doc.components.messages[last(message!.$ref)]!.payload.$ref)]!;
        return [channel.address, ajv.compile(schema)];
      }),
    );
  });

  after(async () => {
    for (const nc of connections) if (!nc.isClosed()) await nc.close();
    await client?.close().catch(() => undefined);
    for (const p of processes) await p.stop();
    if (devnet && devnet.child.exitCode === null) {
      const exit = new Promise((r) => devnet!.child.once("exit", r));
      devnet.child.kill("SIGTERM");
      await exit;
    }
    await nats?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("receives every block and the rollback on their plain subjects, in chain order, each valid against the served AsyncAPI schema", async () => {
    const started = Date.now();
    expect(Object.keys(validators).filter((address) => address.startsWith(`${namespace}.chain.`))).to.deep.equal([
      `${namespace}.chain.block`,
      `${namespace}.chain.rollback`,
    ]);
    // the indexer's start: a rollback to where it resumes (origin: nothing indexed yet)
    await pollUntil(async () => (witness.length > 0 ? true : undefined), "the indexer's first event", 30_000);
    expect(witness[0]).to.deep.include({ subject: `${namespace}.chain.rollback` });
    expect(witness[0]!.payload).to.deep.include({ slot: -1, id: "origin" });

    const b1 = await payAndWait();
    const b2 = await payAndWait();
    const b3 = await payAndWait();
    await devnetCall(devnet!.url, "devnet/rollback", { blocks: 2 });
    await pollUntil(
      async () => (witness.some((e) => e.subject.endsWith(".chain.rollback") && e.payload["id"] === b1.id) ? true : undefined),
      "the rollback to the first block",
      30_000,
    );
    // the rolled-back payments went back to the mempool: the next blocks confirm them again
    const again = await pollUntil(
      async () => {
        const after = blocksIn(witness).filter((b) => b.height > b1.height && b.id !== b2.id && b.id !== b3.id);
        const ids = after.flatMap((b) => b.transactionIds);
        return [...b2.transactionIds, ...b3.transactionIds].every((id) => ids.includes(id)) ? after : undefined;
      },
      "the rolled-back payments confirmed again",
      30_000,
    );

    // every payload: valid against the served schema of its channel, with exactly the fields it lists (plain JSON)
    for (const { subject, payload } of witness) {
      const validate = validators[subject]!;
      expect(validate(payload), `${subject} ${JSON.stringify(payload)}: ${JSON.stringify(validate.errors)}`).to.equal(true);
      expect(Object.keys(payload).sort(), subject).to.deep.equal([...(validate.schema as { required: string[] }).required].sort());
    }
    // in chain order: each block follows the one before it, or the point of the rollback before it
    const shape = witness.map((e) => (e.subject.endsWith(".chain.block") ? `block ${e.payload["id"]}` : `rollback ${e.payload["id"]}`));
    expect(shape).to.deep.equal([
      "rollback origin",
      `block ${b1.id}`,
      `block ${b2.id}`,
      `block ${b3.id}`,
      `rollback ${b1.id}`,
      ...again.map((b) => `block ${b.id}`),
    ]);
    const heights = new Map<string, number>();
    let next: number | undefined;
    for (const { subject, payload } of witness) {
      if (subject.endsWith(".chain.rollback")) {
        next = payload["id"] === "origin" ? undefined : heights.get(String(payload["id"]))! + 1;
        continue;
      }
      const block = payload as unknown as BlockSeen;
      if (next !== undefined) expect(block.height, `height of ${block.id}`).to.equal(next);
      heights.set(block.id, block.height);
      next = block.height + 1;
    }
    const seqs = witness.map((e) => Number(e.payload["lastSeq"]));
    expect(seqs, "lastSeq never decreases").to.deep.equal([...seqs].sort((a, b) => a - b));
    expect(follower.received, "every subscriber receives the same events").to.deep.equal(witness);
    process.stdout.write(`      ${witness.length} events received in order, ${Date.now() - started} ms\n`);
  });

  it("catches up after a downtime from the last block point it saw, by chain-sync, then follows live", async () => {
    const started = Date.now();
    // down: its connection closes; blocks go by
    const before = chainOf(follower.received, namespace);
    const last = before.at(-1)!;
    await follower.nc.close();
    const missed = [await payAndWait(), await payAndWait()];

    // back: subscribe first (live events wait in `live`), then re-read the chain from the last point seen
    const live = follow(await plainClient(), namespace);
    const caughtUp: BlockSeen[] = [];
    const intersections: string[] = [];
    let reachedTip: () => void = () => undefined;
    const atTip = new Promise<void>((resolve) => (reachedTip = resolve));
    const sync = await client!.chainSync([{ slot: last.slot, id: last.id }], {
      rollForward: (block, tip) => {
        const b = block as unknown as { id: string; slot: number; height: number; transactions?: { id: string }[] };
        caughtUp.push({ id: b.id, slot: b.slot, height: b.height, transactionIds: (b.transactions ?? []).map((t) => t.id) });
        if (tip !== "origin" && b.height >= Number(tip.height)) reachedTip();
      },
      rollBackward: (point) => void intersections.push(point === "origin" ? "origin" : point.id),
    });
    await atTip;
    await sync.close();
    // the first answer names the intersection: the point asked for, still on the chain
    expect(intersections).to.deep.equal([last.id]);
    expect(caughtUp.map((b) => b.id)).to.include.members(missed.map((b) => b.id));
    const latest = await payAndWait();
    await pollUntil(async () => (blocksIn(live).some((b) => b.id === latest.id) ? true : undefined), "the live block", 30_000);

    // its chain: what it had, the blocks re-read, then the live events after them (those it re-read already dropped)
    const reread = [...before, ...caughtUp];
    const fresh = live.filter((e) => !(e.subject.endsWith(".chain.block") && reread.some((b) => b.id === e.payload["id"])));
    const rebuilt = chainOf(fresh, namespace, reread);
    const reference = chainOf(witness, namespace);
    expect(rebuilt.map((b) => `${b.height} ${b.id}`)).to.deep.equal(reference.map((b) => `${b.height} ${b.id}`));
    expect(rebuilt.map((b) => b.transactionIds)).to.deep.equal(reference.map((b) => b.transactionIds));
    process.stdout.write(
      `      missed ${missed.length} blocks, re-read ${caughtUp.length} by chain-sync, then live; ${Date.now() - started} ms\n`,
    );
  });
  it("publishes the event log's events of a certificate issued over the API on <NAMESPACE>.events.<type>, as SSE serves them", async () => {
    const started = Date.now();
    expect(Object.keys(validators).filter((address) => address.startsWith(`${namespace}.events.`))).to.have.length.greaterThan(5);
    // the protocol, deployed through the services over NATS (init, library, the default bootstrap)
    const store: Store = await createStore({ dataDir: tmp("deployer") });
    const config = testConfig({ ...env, DATA_DIR: tmp("client"), NODE_ID: "deployer", LOG_LEVEL: "silent" });
    const broker = new ServiceBroker(createBrokerOptions(config, { overrides: { skipProcessEventRegistration: true } }));
    await broker.start();
    try {
      await broker.waitForServices(["indexer", "tx-builder", "submitter", "library", "events"], 60_000);
      const steps = await deployDefaultProtocol((action, params) => broker.call(action, params), devnet!.url, store, service);
      expect(steps.map((s) => s.outcome)).to.deep.equal(["done", "done", "done", "done"]);
    } finally {
      await broker.stop();
      await store.close();
    }

    const user = new IssuingWallet({ api: () => api, wallet: issuer });
    await user.ensureCollateral();
    const issued = await user.issue("nats");
    const ofIssued = (type: string) =>
      pollUntil(
        async () =>
          eventLog.find(
            (e) => e.subject === `${namespace}.events.${type}` && (e.payload["data"] as Json)["transactionHash"] === issued.txId,
          ),
        `${type} of ${issued.txId} on NATS`,
        30_000,
      );
    const submitted = await ofIssued("transaction.submitted");
    const anchored = await ofIssued("certificate.anchored");
    const confirmed = await ofIssued("transaction.confirmed");
    expect(anchored.payload["data"]).to.deep.include({ hash: issued.hash, transactionHash: issued.txId, issuer: issuer.paymentKeyHash });
    expect(anchored.payload["subjects"]).to.include.members([`hash:${issued.hash}`, `transaction:${issued.txId}`]);
    expect(confirmed.payload["data"]).to.deep.include({ depth: 1 });
    expect(Number(anchored.payload["id"])).to.be.lessThan(Number(confirmed.payload["id"]));

    // every event received: valid against its channel's served schema; one events replica publishes in id order
    for (const { subject, payload } of eventLog) {
      const validate = validators[subject];
      expect(validate, `a served channel for ${subject}`).to.not.equal(undefined);
      expect(validate!(payload), `${subject} ${JSON.stringify(payload)}: ${JSON.stringify(validate!.errors)}`).to.equal(true);
      expect(subject).to.equal(`${namespace}.events.${String(payload["type"])}`);
    }
    const ids = eventLog.map((e) => Number(e.payload["id"]));
    expect(ids, "ids in order").to.deep.equal([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size, "each event once").to.equal(ids.length);

    // the same JSON the SSE stream serves for the transaction
    const streamed = await sseEventsUntil(
      `${api}/events?after=0&subject=transaction:${issued.txId}`,
      (e) => e["id"] === confirmed.payload["id"],
    );
    const published = eventLog.filter((e) => (e.payload["subjects"] as string[]).includes(`transaction:${issued.txId}`));
    expect(published.map((e) => e.payload)).to.deep.include.members([submitted.payload, anchored.payload, confirmed.payload]);
    expect(streamed).to.deep.include.members([submitted.payload, anchored.payload, confirmed.payload]);
    process.stdout.write(`      ${eventLog.length} event-log events received on NATS, ${Date.now() - started} ms\n`);
  });
});
