/**
 * Issue #4 read-path figures (load generator on the same 2 cores, so read them as relative):
 * - GET /api/v1/verify/{hash} against a store of 100,000 certificates: embedded (gateway + verifier in one
 *   process), through NATS (verifier in its own process), and a plain node:http server answering from the same
 *   projection as the ceiling;
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
import { ServiceBroker } from "moleculer";
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
import { CertificateProjection } from "../shared/verifier/certificate-projection";
import { Wallet, generateMnemonic } from "../shared/wallet";
import { startNatsServer } from "../fixtures/processes/nats-server";
import { startServiceProcess } from "../fixtures/processes/service-process";
import { serveDevnet } from "./served-devnet";

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require("autocannon") as (opts: Record<string, unknown>) => Promise<AutocannonResult>;

const CERTIFICATES = 100_000;
const DURATION_S = 8;

async function seed(store: Store): Promise<string[]> {
  const issuer = "d4".repeat(28);
  const hashes: string[] = [];
  const docs = [];
  for (let i = 0; i < CERTIFICATES; i++) {
    const hash = randomBytes(32).toString("hex");
    hashes.push(hash);
    docs.push({
      _id: `${randomBytes(32).toString("hex")}:0`,
      hash,
      address: "addr_test1vr2yg4zavmul9ejfmr3x6zvz5chlxd6gysq2nz4ahwhf7tgl8gpc7",
      issuer,
      blockHash: "00".repeat(32),
      blockNumber: i,
      transactionHash: randomBytes(32).toString("hex"),
      slot: i,
      creationTime: 1_700_000_000_000 + i * 1000,
      metadata: '{"uv_tid":"diploma","name":"bench"}',
      bootstrapTokenName: "default",
      algorithm: "SHA-256",
      position: 0,
    });
  }
  await CertificateProjection.open(store, 0); // creates the indexes first
  const certs = store.collection("verifier_certificates");
  for (let i = 0; i < docs.length; i += 5000) await certs.insertMany(docs.slice(i, i + 5000));
  return hashes;
}

async function load(base: string, hashes: string[]): Promise<Record<string, number>> {
  let n = 0;
  const r = await autocannon({
    url: base,
    connections: 50,
    duration: DURATION_S,
    requests: [{ setupRequest: (req: { path: string }) => ({ ...req, path: `${new URL(base).pathname}/${hashes[n++ % hashes.length]}` }) }],
  });
  return { reqPerSec: Math.round(r.requests.average), p50Ms: r.latency.p50, p99Ms: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

const benchEnv = TEST_ENV;

async function gatewayBroker(env: Record<string, string>, services: ("gateway" | "verifier")[], store: Store | null) {
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
  await broker.start();
  return { broker, api: httpUrl(listenAddresses(broker).api!, "/api/v1") };
}

async function ceiling(store: Store, hashes: string[]): Promise<Record<string, number>> {
  const projection = await CertificateProjection.open(store, 0);
  const server = createServer((req, res) => {
    const hash = (req.url ?? "").split("/").pop() ?? "";
    projection.byHash(hash).then(
      (records) => {
        res.writeHead(records.length ? 200 : 404, { "content-type": "application/json" });
        res.end(JSON.stringify(records));
      },
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    return await load(`http://127.0.0.1:${(server.address() as AddressInfo).port}/verify`, hashes);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

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

export default async function (): Promise<Record<string, unknown>> {
  const store = await createStore({ inMemory: true });
  const seedStart = performance.now();
  const hashes = await seed(store);
  const seedMs = Math.round(performance.now() - seedStart);
  const sample = hashes.filter((_, i) => i % 97 === 0);

  const embedded = await gatewayBroker({}, ["gateway", "verifier"], store);
  const embeddedFigures = await load(`${embedded.api}/verify`, sample);
  await embedded.broker.stop();
  const ceilingFigures = await ceiling(store, sample);
  await store.close();

  // Through NATS: the verifier in its own process, on NeDB files holding the same 100,000 records.
  const dataDir = mkdtempSync(join(tmpdir(), "bench-verifier-"));
  const fileStore = await createStore({ dataDir });
  const fileHashes = await seed(fileStore);
  await fileStore.close();
  const nats = await startNatsServer();
  const env = { TRANSPORTER: nats.url, NAMESPACE: `bench-${randomUUID()}`, OGMIOS_URL: "ws://127.0.0.1:9", NETWORK: "devnet" };
  const verifier = startServiceProcess({ ...env, ...benchEnv, SERVICES: "verifier", DATA_DIR: dataDir, LOG_LEVEL: "error" });
  let natsFigures: Record<string, number>;
  try {
    await verifier.waitFor(/mode: scale \(NATS\)/, 120_000);
    const gw = await gatewayBroker({ ...env, SERVICES: "gateway" }, ["gateway"], null);
    await gw.broker.waitForServices(["verifier"], 30_000);
    natsFigures = await load(
      `${gw.api}/verify`,
      fileHashes.filter((_, i) => i % 97 === 0),
    );
    await gw.broker.stop();
  } finally {
    await verifier.stop();
    await nats.stop();
  }

  return {
    certificatesInStore: CERTIFICATES,
    seedMs,
    verifyEmbedded: embeddedFigures,
    verifyThroughNats: natsFigures,
    ceilingNodeHttp: ceilingFigures,
    embeddedToCeiling: Number((embeddedFigures.reqPerSec! / ceilingFigures.reqPerSec!).toFixed(2)),
    indexerReplay: await indexerReplay(1000),
  };
}
