/**
 * Read-path figures (load generator in the same process, on the same cores: read them as ratios, `ratios` below):
 * - GET /api/v1/verify/{hash} against a store of 100,000 certificates, each request a hash drawn uniformly at random
 *   from all of them, after one read of each (the gateway's answer cache, VERIFY_CACHE_MB, then holds what its
 *   default budget allows, as after a while in service; its hit rate over the rounds is reported, and the embedded
 *   figure again with a budget for about a quarter of the answers and with the cache off): embedded (gateway + verifier in one
 *   process), through NATS (verifier in its own process), and a plain node:http server answering from the same
 *   projection and Merkle trees as the ceiling (the same answer: direct and batch lookups, JSON, Content-Length, ETag); figure and ceiling alternate in short rounds and
 *   the ratio is the median of the rounds' ratios, so bursts of load from other work on the machine hit both;
 * - the same with If-None-Match naming each answer's ETag (304 answers), against the ceiling server answering 304
 *   from a map of the ETags it gave;
 * - indexer replay speed from the devnet through the Ogmios protocol (blocks of one transaction).
 * The 100,000 records are written straight into the verifier's collection (the projection's own shape), so the
 * set-up takes seconds instead of replaying 100,000 transactions.
 */
import { TEST_ENV } from "../fixtures/mesh/helpers";
import type { Transaction } from "@cardano-ogmios/schema";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServiceBroker, type Context, type ServiceSchema } from "moleculer";
import { createBrokerOptions } from "../moleculer.config";
import { buildPayment } from "../shared/csl";
import { Devnet } from "../shared/devnet";
import { Indexer } from "../shared/indexer/indexer";
import { PluginPipeline } from "../shared/indexer/plugin-pipeline";
import { protocolViewOf } from "../shared/indexer/protocol-view";
import { loadConfig } from "../shared/config/config";
import { httpUrl, listenAddresses } from "../shared/mesh/listen-addresses";
import { loadServices } from "../shared/mesh/service-loader";
import { createStore, type Store } from "../shared/store";
import { CERTIFICATE_FACTS_COPY, CertificateProjection, type CertificateFactsSource } from "../shared/verifier/certificate-projection";
import { FactLog, type BlockFacts } from "../shared/indexer/fact-log";
import { batchedAnswerEtag, certificateEtag } from "../shared/gateway/read-caching";
import { MerkleTreeStore } from "../shared/merkle/tree-store";
import { findInBatches } from "../shared/verifier/batch-lookup";
import { Wallet, generateMnemonic } from "../shared/wallet";
import { startNatsServer } from "../fixtures/processes/nats-server";
import { startServiceProcess } from "../fixtures/processes/service-process";
import { serveDevnet } from "./served-devnet";
import { DataHash } from "../shared/domain/hex";

interface AutocannonResult {
  requests: { average: number; total: number };
  "3xx": number;
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require("autocannon") as (opts: Record<string, unknown>) => Promise<AutocannonResult>;

const CERTIFICATES = 100_000;
/** An answer-cache budget holding about a quarter of the 100,000 answers (≈ 1.2 KB each). */
const SMALL_BUDGET_MB = 32;
const DURATION_S = 8;

/**
 * Anchors CERTIFICATES random hashes, one per block and transaction, as the indexer records them: certificate facts
 * in the fact log (`"log"`, the verifier in the same store), or in the verifier's copy of them (`"copy"`, a
 * verifier process with a store of its own: the same stored records, which its consumer never has to fetch).
 */
export async function seed(store: Store, where: CertificateFactsSource = "log"): Promise<string[]> {
  const issuer = "d4".repeat(28);
  const hashes: string[] = [];
  const blocks: BlockFacts[] = [];
  for (let i = 0; i < CERTIFICATES; i++) {
    const hash = randomBytes(32).toString("hex");
    hashes.push(hash);
    const txId = randomBytes(32).toString("hex");
    blocks.push({
      point: { slot: i, id: randomBytes(32).toString("hex") },
      height: i,
      time: 1_700_000_000_000 + i * 1000,
      transactions: [{ id: txId, fee: 180_000n, valid: true }],
      facts: [
        {
          txId,
          fact: {
            type: "certificate.issued",
            position: 0,
            hash,
            algorithm: "SHA-256",
            issuer,
            metadata: '{"uv_tid":"diploma","name":"bench"}',
            stateId: "f6".repeat(32),
            bootstrapName: "default",
            purpose: "UPDATE_STATE",
          },
        },
      ],
    });
  }
  await CertificateProjection.open(store, 0, where); // the copy's indexes first
  if (where === "copy") {
    const copy = store.collection(CERTIFICATE_FACTS_COPY);
    const docs = blocks.map((b, i) => ({
      _id: `${b.facts[0]!.txId}:0`,
      seq: i + 1,
      slot: b.point.slot,
      blockId: b.point.id,
      height: b.height,
      time: b.time,
      kind: "fact",
      fact: b.facts[0]!.fact,
      key: null,
      txFee: "180000",
    }));
    for (let i = 0; i < docs.length; i += 5000) await copy.insertMany(docs.slice(i, i + 5000));
    return hashes;
  }
  const log = await FactLog.open(store);
  for (let i = 0; i < blocks.length; i++) {
    log.stageTransactions(blocks[i]!);
    log.stageBlock(blocks[i]!, { tipHeight: CERTIFICATES });
    if (i % 1000 === 999) await log.flush();
  }
  await log.flush();
  return hashes;
}

interface LoadFigures {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  [k: string]: number;
}

/**
 * GET `<base>/<hash>` for DURATION_S: without `etags`, each request a hash drawn uniformly at random from `hashes`;
 * with `etags`, the hashes in turn, each request naming its hash's ETag.
 */
export async function load(base: string, hashes: string[], etags?: Map<string, string>, durationS = DURATION_S): Promise<LoadFigures> {
  let n = 0;
  const next = etags ? () => hashes[n++ % hashes.length]! : () => hashes[Math.floor(Math.random() * hashes.length)]!;
  const path = new URL(base).pathname;
  const r = await autocannon({
    url: base,
    connections: 50,
    duration: durationS,
    requests: [
      {
        setupRequest: (req: { path: string; headers?: Record<string, string> }) => {
          const hash = next();
          const etag = etags?.get(hash);
          return { ...req, path: `${path}/${hash}`, headers: etag ? { ...req.headers, "if-none-match": etag } : req.headers };
        },
      },
    ],
  });
  // With ETags every answer should be 304: `non2xx` then counts the answers that were not.
  return {
    reqPerSec: Math.round(r.requests.average),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    errors: r.errors,
    non2xx: etags ? r.requests.total - r["3xx"] : r.non2xx,
  };
}

/**
 * One GET of every hash, in order (50 connections): a gateway that has run for a while has been asked for them
 * before, so its answer cache holds what its budget allows; the rounds then measure it warm, not its first minute.
 */
export async function readEach(base: string, hashes: string[]): Promise<void> {
  let n = 0;
  const path = new URL(base).pathname;
  await autocannon({
    url: base,
    connections: 50,
    amount: hashes.length,
    requests: [{ setupRequest: (req: { path: string }) => ({ ...req, path: `${path}/${hashes[n++ % hashes.length]!}` }) }],
  });
}

/** The ETag each hash answers now (one plain GET per hash). */
export async function etagsOf(base: string, hashes: string[]): Promise<Map<string, string>> {
  const etags = new Map<string, string>();
  for (const hash of hashes) {
    const res = await fetch(`${base}/${hash}`);
    await res.arrayBuffer();
    const etag = res.headers.get("etag");
    if (res.status !== 200 || !etag) throw new Error(`GET ${base}/${hash} answered ${res.status} without an ETag`);
    etags.set(hash, etag);
  }
  return etags;
}

const benchEnv = TEST_ENV;

/**
 * The fact log the gateway and verifier follow, served like the indexer's internal actions (the benchmark runs
 * no chain): an empty, real FactLog on the benchmark's store, so the gateway can remember validators.
 */
function factLogService(log: FactLog, calls: { status: number; after: number }): ServiceSchema {
  return {
    name: "indexer",
    actions: {
      status: { visibility: "public", handler: () => ((calls.status += 1), { state: "following", lastSeq: log.lastSeq() }) },
      factsAfter: {
        visibility: "public",
        handler: (ctx: Context<{ cursor: number; limit?: number }>) => (
          (calls.after += 1),
          log.after(ctx.params.cursor, ctx.params.limit ?? 1000)
        ),
      },
    },
  };
}

export async function gatewayBroker(
  env: Record<string, string>,
  services: ("gateway" | "verifier")[],
  store: Store | null,
  factLog?: FactLog,
) {
  const config = loadConfig({ ...benchEnv, NAMESPACE: `bench-${randomUUID()}`, ...env });
  const broker = new ServiceBroker(createBrokerOptions(config, { overrides: { skipProcessEventRegistration: true } }));
  const resources = {
    store: async () => {
      if (!store) throw new Error("no store in this process");
      return store;
    },
    chain: async () => {
      throw new Error("the verifier benchmark needs no chain");
    },
  };
  for (const s of loadServices(services, { config, now: Date.now, resources }, join(__dirname, "..", "services")).schemas)
    broker.createService(s);
  const calls = { status: 0, after: 0 };
  if (factLog) broker.createService(factLogService(factLog, calls));
  await broker.start();
  return {
    broker,
    api: httpUrl(listenAddresses(broker).api!, "/api/v1"),
    /** Resolves once the gateway has read the fact log (its validator memory is on). */
    following: async () => {
      while (calls.after === 0) await new Promise((r) => setTimeout(r, 50));
    },
  };
}

/**
 * The ceiling: a plain node:http server answering from the same projection, with the same JSON, the ETag the
 * verifier gives, and 304 to a matching If-None-Match from a map of the ETags it answered (what a 304 costs at
 * the least).
 */
export async function startCeiling(store: Store) {
  const projection = await CertificateProjection.open(store, 0);
  const trees = await MerkleTreeStore.open(store, Date.now);
  const known = new Map<string, string>();
  const server = createServer((req, res) => {
    const hash = (req.url ?? "").split("/").pop() ?? "";
    const condition = req.headers["if-none-match"];
    if (condition !== undefined && known.get(hash) === condition) {
      res.writeHead(304, { etag: condition }).end();
      return;
    }
    // The same answer as the verifier's: direct certificates, then those inside Merkle batches.
    Promise.all([projection.findByHash(DataHash(hash)), hash.length === 64 ? findInBatches(projection, trees, DataHash(hash)) : []]).then(
      ([{ records: direct, newest }, inBatches]) => {
        const records = [...direct, ...inBatches];
        if (records.length === 0) {
          res.writeHead(404, { "content-type": "application/json" }).end("{}");
          return;
        }
        const etag = inBatches.length === 0 && newest ? certificateEtag(newest) : batchedAnswerEtag(records);
        known.set(hash, etag);
        const body = JSON.stringify(records);
        res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body), etag });
        res.end(body);
      },
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/verify`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

interface AnswerCacheStats {
  hits: number;
  misses: number;
  hashes: number;
  bodyBytes: number;
  maxBodyBytes: number;
}

/** The gateway's answer cache over a phase: share of full answers served from memory, and what it held after. */
async function answerCacheOver(broker: ServiceBroker, phase: () => Promise<Paired>) {
  const stats = () => broker.call<AnswerCacheStats, Record<string, never>>("gateway.answerCacheStats", {});
  const before = await stats();
  const result = await phase();
  const after = await stats();
  const hits = after.hits - before.hits;
  const misses = after.misses - before.misses;
  return {
    result,
    answerCache: {
      hitRate: Number((hits / Math.max(1, hits + misses)).toFixed(3)),
      hits,
      misses,
      hashesHeld: after.hashes,
      megabytesHeld: Number((after.bodyBytes / 2 ** 20).toFixed(1)),
      budgetMegabytes: Number((after.maxBodyBytes / 2 ** 20).toFixed(1)),
    },
  };
}

const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const rps = (f: LoadFigures) => `${f.reqPerSec.toLocaleString("en")} req/s`;

export async function indexerReplay(blocks: number): Promise<Record<string, number>> {
  const wallet = Wallet.fromMnemonic(generateMnemonic());
  const payee = Wallet.fromMnemonic(generateMnemonic()).address;
  const devnet = await Devnet.create({ genesis: [{ address: wallet.address, lovelace: 1_000_000_000_000n }] });
  const t0 = performance.now();
  for (let i = 0; i < blocks; i++) {
    const built = buildPayment({
      protocolParameters: devnet.protocolParameters(),
      utxos: devnet.queryUtxo({ addresses: [wallet.address] }),
      changeAddress: wallet.address,
      outputs: [{ address: payee, lovelace: 2_000_000n }],
    });
    await devnet.submitTransaction(wallet.signTxFull(built.cborHex));
    devnet.produceBlock();
  }
  const generateMs = performance.now() - t0;
  const chain = await serveDevnet(devnet);
  const store = await createStore({ inMemory: true });
  const indexer = await Indexer.create({
    store,
    chain: chain.client,
    view: protocolViewOf(null, 0),
    pipeline: new PluginPipeline<Transaction>(),
    slotToTime: (s) => s * 1000,
  });
  const tip = devnet.tip();
  const start = performance.now();
  await indexer.start();
  while ((await indexer.log.checkpoint())?.point.id !== (tip === "origin" ? "" : tip.id)) await new Promise((r) => setTimeout(r, 20));
  const seconds = (performance.now() - start) / 1000;
  await indexer.stop();
  await store.close();
  await chain.close();
  return {
    blocks,
    transactions: blocks,
    generateMs: Math.round(generateMs),
    replayMs: Math.round(seconds * 1000),
    blocksPerSec: Math.round(blocks / seconds),
    transactionsPerSec: Math.round(blocks / seconds),
  };
}

/** Rounds of (ceiling, figure) load, alternated so both see the same moments of a machine shared with others. */
const ROUNDS = 8;
const ROUND_S = 2;

interface Paired {
  figure: LoadFigures;
  ceiling: LoadFigures;
  /** Median over the rounds of figure ÷ ceiling (req/s), and of p99 figure ÷ p99 ceiling. */
  ratio: number;
  p99Ratio: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Alternates ceiling and figure rounds; figures are the medians of the rounds, the ratio the median of ratios. */
async function paired(ceiling: () => Promise<LoadFigures>, figure: () => Promise<LoadFigures>): Promise<Paired> {
  const cs: LoadFigures[] = [];
  const fs: LoadFigures[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    cs.push(await ceiling());
    fs.push(await figure());
  }
  const summary = (xs: LoadFigures[]): LoadFigures => ({
    reqPerSec: Math.round(median(xs.map((x) => x.reqPerSec))),
    p50Ms: median(xs.map((x) => x.p50Ms)),
    p99Ms: median(xs.map((x) => x.p99Ms)),
    errors: xs.reduce((a, x) => a + x.errors, 0),
    non2xx: xs.reduce((a, x) => a + x.non2xx, 0),
  });
  return {
    figure: summary(fs),
    ceiling: summary(cs),
    ratio: ratio(median(fs.map((f, i) => f.reqPerSec / cs[i]!.reqPerSec)), 1),
    p99Ratio: ratio(median(fs.map((f, i) => f.p99Ms / Math.max(1, cs[i]!.p99Ms))), 1),
  };
}

export default async function (): Promise<Record<string, unknown>> {
  const store = await createStore({ inMemory: true });
  const seedStart = performance.now();
  const hashes = await seed(store);
  const seedMs = Math.round(performance.now() - seedStart);
  const sample = hashes.filter((_, i) => i % 97 === 0);
  const ceiling = await startCeiling(store);
  const ceilingEtags = await etagsOf(ceiling.url, sample);
  const ceilingLoad = () => load(ceiling.url, hashes, undefined, ROUND_S);
  const ceiling304 = () => load(ceiling.url, sample, ceilingEtags, ROUND_S);

  // Embedded: gateway and verifier in this process.
  const embedded = await gatewayBroker({}, ["gateway", "verifier"], store, await FactLog.open(store));
  await embedded.broker.call("verifier.sync");
  await embedded.following();
  await readEach(`${embedded.api}/verify`, hashes);
  const embeddedEtags = await etagsOf(`${embedded.api}/verify`, sample);
  const { result: verifyEmbedded, answerCache: answerCacheEmbedded } = await answerCacheOver(embedded.broker, () =>
    paired(ceilingLoad, () => load(`${embedded.api}/verify`, hashes, undefined, ROUND_S)),
  );
  const notModifiedEmbedded = await paired(ceiling304, () => load(`${embedded.api}/verify`, sample, embeddedEtags, ROUND_S));
  await embedded.broker.stop();

  // The same with a budget holding about a quarter of the answers, and without the answer cache (every full
  // answer through the router and the verifier).
  const withBudget = async (megabytes: number) => {
    const gw = await gatewayBroker({ VERIFY_CACHE_MB: String(megabytes) }, ["gateway", "verifier"], store, await FactLog.open(store));
    await gw.broker.call("verifier.sync");
    await gw.following();
    // Nothing to fill without a budget: a second of load warms the code instead.
    if (megabytes > 0) await readEach(`${gw.api}/verify`, hashes);
    else await load(`${gw.api}/verify`, hashes, undefined, 1);
    const measured = await answerCacheOver(gw.broker, () =>
      paired(ceilingLoad, () => load(`${gw.api}/verify`, hashes, undefined, ROUND_S)),
    );
    await gw.broker.stop();
    return measured;
  };
  const { result: verifySmallBudget, answerCache: answerCacheSmallBudget } = await withBudget(SMALL_BUDGET_MB);
  const { result: verifyEmbeddedUncached } = await withBudget(0);

  // Through NATS: the verifier in its own process, on the embedded store's files (SQLite by default) holding the
  // same number of certificates (its copy of the certificate facts: the fact log is in another process).
  const dataDir = mkdtempSync(join(tmpdir(), "bench-verifier-"));
  const fileStore = await createStore({ dataDir });
  const fileHashes = await seed(fileStore, "copy");
  await fileStore.close();
  const fileSample = fileHashes.filter((_, i) => i % 97 === 0);
  const nats = await startNatsServer();
  const env = { TRANSPORTER: nats.url, NAMESPACE: `bench-${randomUUID()}`, OGMIOS_URL: "ws://127.0.0.1:9", NETWORK: "devnet" };
  const verifier = startServiceProcess({ ...env, ...benchEnv, SERVICES: "verifier", DATA_DIR: dataDir, LOG_LEVEL: "error" });
  const logStore = await createStore({ inMemory: true });
  let verifyThroughNats: Paired;
  let answerCacheThroughNats: Awaited<ReturnType<typeof answerCacheOver>>["answerCache"];
  let notModifiedThroughNats: Paired;
  try {
    await verifier.waitFor(/"mode":"scale \(NATS\)"/, 120_000);
    const gw = await gatewayBroker({ ...env, SERVICES: "gateway" }, ["gateway"], null, await FactLog.open(logStore));
    await gw.broker.waitForServices(["verifier"], 30_000);
    // The verifier process finds the fact log (served here) once it has discovered this node: retry until it has.
    for (let tries = 0; ; tries++) {
      try {
        await gw.broker.call("verifier.sync");
        break;
      } catch (err) {
        if (tries > 100) throw err;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    await gw.following();
    await readEach(`${gw.api}/verify`, fileHashes);
    const natsEtags = await etagsOf(`${gw.api}/verify`, fileSample);
    ({ result: verifyThroughNats, answerCache: answerCacheThroughNats } = await answerCacheOver(gw.broker, () =>
      paired(ceilingLoad, () => load(`${gw.api}/verify`, fileHashes, undefined, ROUND_S)),
    ));
    notModifiedThroughNats = await paired(ceiling304, () => load(`${gw.api}/verify`, fileSample, natsEtags, ROUND_S));
    await gw.broker.stop();
  } finally {
    await verifier.stop();
    await nats.stop();
    await logStore.close();
  }
  await ceiling.close();
  await store.close();

  return {
    certificatesInStore: CERTIFICATES,
    seedMs,
    rounds: { count: ROUNDS, seconds: ROUND_S },
    verifyEmbedded,
    answerCacheEmbedded,
    verifySmallBudget,
    answerCacheSmallBudget,
    verifyEmbeddedUncached,
    verifyThroughNats,
    answerCacheThroughNats,
    notModifiedEmbedded,
    notModifiedThroughNats,
    ratios: {
      embeddedToCeiling: {
        value: verifyEmbedded.ratio,
        target: 0.9,
        figure: `${rps(verifyEmbedded.figure)} embedded, ${pct(answerCacheEmbedded.hitRate)} from the answer cache`,
        reference: `${rps(verifyEmbedded.ceiling)} plain node:http`,
      },
      embeddedSmallBudgetToCeiling: {
        value: verifySmallBudget.ratio,
        figure: `${rps(verifySmallBudget.figure)} embedded, VERIFY_CACHE_MB=${SMALL_BUDGET_MB}, ${pct(answerCacheSmallBudget.hitRate)} from the answer cache`,
        reference: `${rps(verifySmallBudget.ceiling)} plain node:http`,
      },
      embeddedUncachedToCeiling: {
        value: verifyEmbeddedUncached.ratio,
        figure: `${rps(verifyEmbeddedUncached.figure)} embedded, VERIFY_CACHE_MB=0`,
        reference: `${rps(verifyEmbeddedUncached.ceiling)} plain node:http`,
      },
      natsToCeiling: {
        value: verifyThroughNats.ratio,
        target: 0.7,
        figure: `${rps(verifyThroughNats.figure)} through NATS, ${pct(answerCacheThroughNats!.hitRate)} from the answer cache`,
        reference: `${rps(verifyThroughNats.ceiling)} plain node:http`,
      },
      embeddedP99ToCeilingP99: {
        value: verifyEmbedded.p99Ratio,
        target: 2,
        lowerIsBetter: true,
        figure: `p99 ${verifyEmbedded.figure.p99Ms} ms embedded`,
        reference: `p99 ${verifyEmbedded.ceiling.p99Ms} ms plain node:http`,
      },
      natsP99ToCeilingP99: {
        value: verifyThroughNats.p99Ratio,
        target: 2,
        lowerIsBetter: true,
        figure: `p99 ${verifyThroughNats.figure.p99Ms} ms through NATS`,
        reference: `p99 ${verifyThroughNats.ceiling.p99Ms} ms plain node:http`,
      },
      notModifiedEmbeddedToCeiling: {
        value: notModifiedEmbedded.ratio,
        figure: `${rps(notModifiedEmbedded.figure)} 304 embedded`,
        reference: `${rps(notModifiedEmbedded.ceiling)} 304 plain node:http`,
      },
      notModifiedThroughNatsToCeiling: {
        value: notModifiedThroughNats.ratio,
        figure: `${rps(notModifiedThroughNats.figure)} 304 through NATS`,
        reference: `${rps(notModifiedThroughNats.ceiling)} 304 plain node:http`,
      },
    },
    indexerReplay: await indexerReplay(1000),
  };
}
