/**
 * Scale mode: the gateway and tx-builder are different processes and a Merkle batch of up to 1,000,000 hashes
 * (32 MB packed) crosses NATS, whose messages hold at most the server's max_payload (1 MB by default). The gateway's
 * BatchStream middleware sends the packed hashes of a remote `tx-builder.buildBatch` call as a Moleculer stream of
 * chunks, and tx-builder reads them with the limits of a byte body (readStreamedHashes). Real nats-server with its
 * default max_payload; the receiving action is tx-builder's parse of the request (the build itself needs a chain
 * and is covered by batch-anchoring.spec.ts). Needs nats-server (CI installs it), like the distributed tests.
 */
import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { expect } from "chai";
import { ServiceBroker, type Context } from "moleculer";
import { batchRefusalAnswer, parseBatchRequest, readStreamedHashes, type BatchBuildResponse } from "../../shared/issuance/batch-build";
import { MAX_BATCH_HASHES } from "../../shared/merkle/batch-limits";
import { toHttpErrorReply } from "../../shared/gateway/error-mapping";
import { httpStatusOfType } from "../../shared/gateway/http-status";
import { BATCH_STREAM_CHUNK_BYTES, createBatchStreamMiddleware } from "../../shared/mesh/batch-stream-middleware";
import { startNatsServer, type NatsServerHandle } from "../../fixtures/processes/nats-server";
import { createBrokerOptions } from "../../moleculer.config";
import { errorBody, http, startGateway, testConfig, type HttpResult, type RunningGateway } from "../../fixtures/mesh/helpers";
import { buildTree } from "../../shared/merkle/tree-store";
import { hashPackedLeaves, rootOfLevels, treeLevels } from "../../shared/merkle/merkle-tree";

interface Received {
  digest: string;
  leafCount: number;
  params: Record<string, unknown>;
  streamed: boolean;
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("merkle batches over NATS (real nats-server)", function () {
  this.timeout(120_000);
  let nats: NatsServerHandle;
  let gateway: ServiceBroker;
  let plain: ServiceBroker;
  let txBuilder: ServiceBroker;
  /** tx-builder's side of each call: how many hashes crossed, and their digest */
  let received: Received[];

  before(async () => {
    nats = await startNatsServer();
    const broker = (nodeID: string, withMiddleware: boolean) =>
      new ServiceBroker({
        nodeID,
        namespace: "merkle-nats",
        transporter: { type: "NATS", options: { url: nats.url } },
        serializer: "JSON",
        logger: false,
        middlewares: withMiddleware ? [createBatchStreamMiddleware()] : [],
      });
    gateway = broker("gateway-side", true);
    plain = broker("plain-caller", false);
    txBuilder = broker("tx-builder-side", true);
    txBuilder.createService({
      name: "tx-builder",
      actions: {
        // what the tx-builder action does before the build: the stream (or params) read with the batch limits
        async buildBatch(ctx: Context<Record<string, unknown>, { $statusCode?: number }>): Promise<Received | BatchBuildResponse> {
          const stream = (ctx as { stream?: AsyncIterable<unknown> | null }).stream ?? undefined;
          try {
            const body = stream === undefined ? ctx.params : { ...ctx.params, hashes: await readStreamedHashes(stream) };
            const req = parseBatchRequest(body);
            const answer = {
              digest: sha256(req.leaves),
              leafCount: req.leaves.length / 32,
              params: ctx.params,
              streamed: stream !== undefined,
            };
            received.push(answer);
            return answer;
          } catch (err) {
            const answer = batchRefusalAnswer(err);
            ctx.meta.$statusCode = httpStatusOfType(answer.status.code);
            return answer;
          }
        },
      },
    });
    txBuilder.createService({
      name: "batch-sink",
      actions: {
        take(ctx: Context<Record<string, unknown>>) {
          return parseBatchRequest(ctx.params).leaves.length / 32;
        },
      },
    });
    await Promise.all([gateway.start(), plain.start(), txBuilder.start()]);
    await Promise.all([gateway.waitForServices(["tx-builder", "batch-sink"]), plain.waitForServices(["tx-builder"])]);
  });
  beforeEach(() => {
    received = [];
  });
  after(async () => {
    await gateway?.stop();
    await plain?.stop();
    await txBuilder?.stop();
    await nats?.stop();
  });

  it("streams 200,000 hashes sent as bytes (6.4 MB, beyond max_payload) intact, with the other params", async () => {
    const bytes = randomBytes(32 * 200_000);
    const meta: { $statusCode?: number } = {};
    const params = { address: "addr_test1xyz", metadata: '{"archive":"a"}', hashes: bytes };
    const answer = (await gateway.call("tx-builder.buildBatch", params, { meta })) as Received;
    expect(answer).to.include({ leafCount: 200_000, digest: sha256(bytes), streamed: true });
    expect(answer.params).to.deep.equal({ address: "addr_test1xyz", metadata: '{"archive":"a"}' });
    expect(meta.$statusCode).to.equal(undefined);
    // more than one message was needed: a chunk is far below the 1 MB a NATS message holds
    expect(bytes.length / BATCH_STREAM_CHUNK_BYTES).to.be.greaterThan(40);
  });

  it("streams 200,000 hashes sent as a JSON array of hex as their packed bytes", async () => {
    const bytes = randomBytes(32 * 200_000);
    const hashes = Array.from({ length: 200_000 }, (_, i) => bytes.subarray(i * 32, i * 32 + 32).toString("hex"));
    const answer = (await gateway.call("tx-builder.buildBatch", { address: "addr_test1xyz", hashes })) as Received;
    expect(answer).to.include({ leafCount: 200_000, digest: sha256(bytes), streamed: true });
  });

  it("streams the full 1,000,000 hashes (32 MB) intact", async () => {
    const bytes = randomBytes(32 * MAX_BATCH_HASHES);
    const answer = (await gateway.call("tx-builder.buildBatch", { hashes: bytes })) as Received;
    expect(answer).to.include({ leafCount: MAX_BATCH_HASHES, digest: sha256(bytes) });
  });

  it("answers a batch the gateway can refuse (too many, empty, not hex) with 400 before it crosses the bus", async () => {
    const cases: [unknown, RegExp][] = [
      [Buffer.alloc(32 * (MAX_BATCH_HASHES + 1)), /at most 1,000,000 hashes \(got 1000001\)/],
      [new Array<string>(MAX_BATCH_HASHES + 1).fill("00".repeat(32)), /at most 1,000,000 hashes \(got 1000001\)/],
      [Buffer.alloc(0), /The batch is empty/],
      [["zz"], /hashes\[0\] must be a 32-byte hash/],
      [Buffer.alloc(33), /33 bytes is not a multiple of 32/],
    ];
    for (const [hashes, message] of cases) {
      const meta: { $statusCode?: number } = {};
      const answer = (await gateway.call("tx-builder.buildBatch", { hashes }, { meta })) as BatchBuildResponse;
      expect(meta.$statusCode, String(message)).to.equal(400);
      expect(answer.status.code).to.equal("ERROR");
      expect(answer.status.message).to.match(message);
    }
    const meta: { $statusCode?: number } = {};
    const answer = (await gateway.call(
      "tx-builder.buildBatch",
      { hashes: Buffer.alloc(32 * (MAX_BATCH_HASHES + 1)) },
      { meta },
    )) as BatchBuildResponse;
    expect(answer.maxHashes).to.equal(MAX_BATCH_HASHES);
    expect(received).to.deep.equal([]);
  });

  it("refuses on tx-builder's side a stream over the limit or not a multiple of 32 bytes, with 400", async () => {
    const send = async (bytes: Buffer) => {
      const meta: { $statusCode?: number } = {};
      const chunks = Readable.from(
        Array.from({ length: Math.ceil(bytes.length / 65_536) }, (_, i) => bytes.subarray(i * 65_536, (i + 1) * 65_536)),
      );
      const answer = (await plain.call("tx-builder.buildBatch", {}, { meta, stream: chunks })) as BatchBuildResponse;
      return { answer, status: meta.$statusCode };
    };
    const over = await send(Buffer.alloc(32 * (MAX_BATCH_HASHES + 1)));
    expect(over.status).to.equal(400);
    expect(over.answer.status.message).to.match(/at most 1,000,000 hashes \(got 1000001\)/);
    expect(over.answer.maxHashes).to.equal(MAX_BATCH_HASHES);
    const ragged = await send(Buffer.alloc(32 * 1_000 + 7));
    expect(ragged.status).to.equal(400);
    expect(ragged.answer.status.message).to.match(/32007 bytes is not a multiple of 32/);
    const empty = await send(Buffer.alloc(0));
    expect(empty.status).to.equal(400);
    expect(empty.answer.status.message).to.match(/The batch is empty/);
  });

  it("still answers an unstreamed call beyond the bus's max_payload with 413 PAYLOAD_TOO_LARGE, not 500", async () => {
    let failure: unknown;
    try {
      await gateway.call("batch-sink.take", { hashes: Buffer.alloc(32 * 40_000) });
    } catch (err) {
      failure = err;
    }
    expect(failure, "the call must fail").to.not.equal(undefined);
    const reply = toHttpErrorReply(failure);
    expect(reply.status).to.equal(413);
    expect(reply.body.error).to.equal("PAYLOAD_TOO_LARGE");
    expect(reply.body.message).to.match(/max_payload/);
  });
});

describe("merkle batches over NATS through the gateway's HTTP API (real broker config, real nats-server)", function () {
  this.timeout(120_000);
  let nats: NatsServerHandle;
  let gw: RunningGateway;
  let txBuilder: ServiceBroker;
  /** what tx-builder's side read: the digest of the packed hashes and whether they came as a stream */
  let seen: { digest: string; streamed: boolean }[];

  before(async () => {
    nats = await startNatsServer();
    const env = { TRANSPORTER: nats.url, NAMESPACE: `merkle-http-${randomBytes(6).toString("hex")}` };
    txBuilder = new ServiceBroker(
      createBrokerOptions(testConfig(env), { overrides: { skipProcessEventRegistration: true, nodeID: "tx-builder-node" } }),
    );
    // Stand-in for tx-builder up to its tree: the request read as the real action reads it, and the Merkle tree of
    // what arrived; no transaction (that needs a chain: batch-anchoring.spec.ts builds and anchors real batches).
    txBuilder.createService({
      name: "tx-builder",
      actions: {
        async buildBatch(ctx: Context<Record<string, unknown>, { $statusCode?: number }>): Promise<BatchBuildResponse> {
          const stream = (ctx as { stream?: AsyncIterable<unknown> | null }).stream ?? undefined;
          try {
            const req = parseBatchRequest(stream === undefined ? ctx.params : { ...ctx.params, hashes: await readStreamedHashes(stream) });
            seen.push({ digest: sha256(req.leaves), streamed: stream !== undefined });
            const tree = buildTree(req.leaves);
            const message = `Batch of ${tree.leafCount} hashes read (no transaction: stand-in).`;
            return {
              unsignedTransaction: null,
              type: "default",
              status: { code: "SUCCESS", message },
              merkleRoot: tree.root.toString("hex"),
              treeId: tree.treeId,
              leafCount: tree.leafCount,
            };
          } catch (err) {
            const answer = batchRefusalAnswer(err);
            ctx.meta.$statusCode = httpStatusOfType(answer.status.code);
            return answer;
          }
        },
      },
    });
    await txBuilder.start();
    gw = await startGateway({ env, nodeID: "gateway-node" });
    await gw.broker.waitForServices(["tx-builder"]);
  });
  beforeEach(() => {
    seen = [];
  });
  after(async () => {
    await gw?.stop();
    await txBuilder?.stop();
    await nats?.stop();
  });

  const address = "addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3jcu5d8ps7zex2k2xt3uqxgjqnnj83ws8lhrn648jjxtwq2ytjqp";
  const rootOf = (packed: Buffer) => rootOfLevels(treeLevels(hashPackedLeaves(packed))).toString("hex");
  const post = (body: Buffer | string, type: string, query = ""): Promise<HttpResult> =>
    http(`${gw.api}/batch/build${query}`, { method: "POST", headers: { "Content-Type": type }, body });

  it("takes 200,000 hashes as application/octet-stream (6.4 MB) across NATS intact", async () => {
    const packed = randomBytes(32 * 200_000);
    const res = await post(packed, "application/octet-stream", `?address=${address}`);
    expect(res.status, res.text).to.equal(200);
    expect(res.json).to.include({ leafCount: 200_000, merkleRoot: rootOf(packed) });
    expect(seen).to.deep.equal([{ digest: sha256(packed), streamed: true }]);
  });

  it("takes 200,000 hashes as a JSON array of hex across NATS, packed", async () => {
    const packed = randomBytes(32 * 200_000);
    const hashes = Array.from({ length: 200_000 }, (_, i) => packed.subarray(i * 32, i * 32 + 32).toString("hex"));
    const res = await post(JSON.stringify({ address, hashes }), "application/json");
    expect(res.status, res.text).to.equal(200);
    expect(res.json).to.include({ leafCount: 200_000, merkleRoot: rootOf(packed) });
    expect(seen).to.deep.equal([{ digest: sha256(packed), streamed: true }]);
  });

  it("answers more than 1,000,000 hashes with 400 naming the limit, and a ragged byte body with 400", async () => {
    const tooMany = `{"address":"${address}","hashes":[${'"00",'.repeat(MAX_BATCH_HASHES)}"00"]}`;
    const many = await post(tooMany, "application/json");
    expect(many.status, many.text).to.equal(400);
    expect(errorBody(many).message).to.match(/at most 1,000,000 hashes \(got 1000001\)/);
    expect(errorBody(many)).to.include({ maxHashes: MAX_BATCH_HASHES });
    const ragged = await post(randomBytes(32 * 3 + 5), "application/octet-stream", `?address=${address}`);
    expect(ragged.status, ragged.text).to.equal(400);
    expect(errorBody(ragged).message).to.match(/101 bytes is not a multiple of 32/);
    expect(seen).to.deep.equal([]);
  });

  it("answers a byte body over the limit with 413 from the gateway's body limit", async () => {
    const big = await post(Buffer.alloc(32 * (MAX_BATCH_HASHES + 1)), "application/octet-stream", `?address=${address}`);
    expect(big.status).to.equal(413);
    expect(errorBody(big).error).to.equal("PAYLOAD_TOO_LARGE");
  });
});
