/**
 * Scale mode across processes on a real nats-server: the devnet and the gateway and read side (indexer, verifier,
 * library) run as processes; the write side runs as TWO replicas (two Moleculer nodes, each with fractionized,
 * tx-builder and submitter, sharing one store as pods share MongoDB) that NATS balances. Two wallets race inserts
 * on one predecessor of a fractionized list: both land, the loser through the replacement the service builds
 * (in its 409, or at GET /pending/{txHash} once the chain has moved on).
 */
import { startDevnetProcess } from "../../fixtures/processes/devnet-process";
import { expect } from "chai";
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServiceBroker, type ServiceSchema } from "moleculer";
import { createBrokerOptions } from "../../moleculer.config";
import { deployDefaultProtocol } from "../../shared/first-start/devnet-first-start";
import { devnetProtocolConfig, serviceGenesisFunds } from "../../shared/first-start/devnet-deployment";
import { createChainClient, type ChainClient } from "../../shared/chain";
import { txIdOf } from "../../shared/csl";
import type { OgmiosUtxo } from "../../shared/csl/utxo";
import type { ServiceDeps } from "../../shared/mesh/service-deps";
import { loadServices } from "../../shared/mesh/service-loader";
import { createStore, type Store } from "../../shared/store";
import { generateMnemonic, Wallet } from "../../shared/wallet";
import { http, pollUntil, postJson, testConfig } from "../../fixtures/mesh/helpers";
import { requireNatsServer, startNatsServer, type NatsServerHandle } from "../../fixtures/processes/nats-server";
import { startServiceProcess, type ServiceProcess } from "../../fixtures/processes/service-process";

const REPO = join(__dirname, "..", "..");
const API = "/extension/fractionized-certificate";
const key = (byte: number) => byte.toString(16).padStart(2, "0").repeat(32);

describe("e2e: distributed over NATS, two wallets racing fractionized inserts through two builder replicas", function () {
  this.timeout(240_000);
  const service = Wallet.fromMnemonic(generateMnemonic());
  const alice = Wallet.fromMnemonic(generateMnemonic());
  const bob = Wallet.fromMnemonic(generateMnemonic());
  const dirs: string[] = [];
  let nats: NatsServerHandle | undefined;
  let devnet: { child: ChildProcess; url: string } | undefined;
  const processes: ServiceProcess[] = [];
  const brokers: ServiceBroker[] = [];
  let store: Store | undefined;
  let client: ChainClient | undefined;
  let api = "";
  const served: Record<string, number> = {};

  const tmp = (label: string) => {
    const d = mkdtempSync(join(tmpdir(), `frac-${label}-`));
    dirs.push(d);
    return d;
  };
  const submit = (unsigned: string, w: Wallet) =>
    postJson(`${api}/transaction/submit`, { transaction: unsigned, witnessSet: w.signTx(unsigned) });
  const confirmed = (txId: string) =>
    pollUntil(
      async () => ((await http(`${api}/transaction/confirm/${txId}`)).status === 200 ? true : undefined),
      `confirmation of ${txId}`,
      60_000,
    );

  before(async function () {
    requireNatsServer(this);
    nats = await startNatsServer();
    devnet = await startDevnetProcess([
      ...serviceGenesisFunds(service),
      { address: alice.address, lovelace: 3_000_000_000n },
      { address: bob.address, lovelace: 3_000_000_000n },
    ]);
    const protocol = devnetProtocolConfig(service);
    const env: Record<string, string> = {
      TRANSPORTER: nats.url,
      NAMESPACE: `frac-${randomUUID()}`,
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
    const gateway = startServiceProcess({ ...env, SERVICES: "gateway", DATA_DIR: tmp("gateway"), NODE_ID: "gateway" });
    const reader = startServiceProcess({ ...env, SERVICES: "indexer,verifier,library", DATA_DIR: tmp("reader"), NODE_ID: "reader" });
    processes.push(gateway, reader);

    store = await createStore({ dataDir: tmp("writers") });
    const sharedStore = store;
    for (const nodeId of ["builder-a", "builder-b"]) {
      const config = testConfig({ ...env, DATA_DIR: tmp(nodeId), NODE_ID: nodeId, LOG_LEVEL: "silent" });
      const deps: ServiceDeps = {
        config,
        now: Date.now,
        resources: { store: async () => sharedStore, chain: async () => ({ ogmiosUrl: devnet!.url, network: "devnet", devnet: null }) },
      };
      const broker = new ServiceBroker(createBrokerOptions(config, { overrides: { skipProcessEventRegistration: true } }));
      for (const schema of loadServices(["tx-builder", "submitter", "fractionized"], deps, join(REPO, "services"))
        .schemas as ServiceSchema[]) {
        if (schema.name === "fractionized") {
          // observation only: which replica served each build or rebuild
          const count = () => void (served[nodeId] = (served[nodeId] ?? 0) + 1);
          schema.hooks = { before: { build: count, rebuild: count } };
        }
        broker.createService(schema);
      }
      brokers.push(broker);
    }
    await Promise.all(brokers.map((b) => b.start()));
    api = (await gateway.waitFor(/"api":"(http:\/\/[^"\s]+\/api\/v1)"/))[1]!;
    await reader.waitFor(/"mode":"scale/);
    await brokers[0]!.waitForServices(["indexer", "verifier", "library", "tx-builder", "submitter", "fractionized"], 60_000);
    client = createChainClient({ url: devnet.url });
  });

  after(async () => {
    await client?.close().catch(() => undefined);
    for (const b of brokers) await b.stop().catch(() => undefined);
    await store?.close().catch(() => undefined);
    for (const p of processes) await p.stop();
    if (devnet && devnet.child.exitCode === null) {
      const exit = new Promise((r) => devnet!.child.once("exit", r));
      devnet.child.kill("SIGTERM");
      await exit;
    }
    await nats?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("both racing inserts land: the loser is rebuilt on the winner by the service", async () => {
    await deployDefaultProtocol((action, params) => brokers[0]!.call(action, params), devnet!.url, store!, service);
    const extensions = await http(`${api}/extensions`);
    expect(extensions.json).to.deep.include({ "fractionized-certificate": true });

    // each wallet's dedicated collateral
    for (const w of [alice, bob]) {
      const res = await postJson(`${api}/transaction/prepare-collateral`, { senderAddress: w.address });
      const unsigned = (res.json as { unsignedTransaction: string }).unsignedTransaction;
      const sent = await submit(unsigned, w);
      expect(sent.status, sent.text).to.equal(200);
      await confirmed((sent.json as { transactionHash: string }).transactionHash);
    }
    // alice's list, open to bob's inserts
    const init = ((await client!.utxosByAddresses([alice.address])) as unknown as OgmiosUtxo[]).find(
      (u) => BigInt(u.value.ada.lovelace) > 100_000_000n,
    )!;
    const list = { initUtxoTxHash: init.transaction.id, initUtxoOutputIndex: init.index };
    const query = `initUtxoTxHash=${init.transaction.id}&initUtxoOutputIndex=${init.index}`;
    const create = (w: Wallet, k: string, extra: Record<string, unknown> = {}) =>
      postJson(`${api}${API}/build`, {
        type: "CREATE",
        senderAddress: w.address,
        ...list,
        key: k,
        totalAmount: 5,
        claimants: [],
        ...extra,
      });
    const first = await create(alice, key(0x10), { config: { allowedInserters: [alice.paymentKeyHash, bob.paymentKeyHash] } });
    expect(first.status, first.text).to.equal(200);
    const initTx = await submit(first.text, alice);
    expect(initTx.status, initTx.text).to.equal(200);
    await confirmed((initTx.json as { transactionHash: string }).transactionHash);
    const keys = async () => ((await http(`${api}${API}/status/${key(0x10)}?${query}`)).json as { keys: string[] }).keys;
    await pollUntil(async () => ((await keys()).length === 1 ? true : undefined), "the list", 30_000);

    // both build on node 0x10 at once, through whichever replica NATS picks
    const [a, b] = await Promise.all([create(alice, key(0x50)), create(bob, key(0x60))]);
    expect([a.status, b.status], `${a.text} ${b.text}`).to.deep.equal([200, 200]);
    const won = await submit(a.text, alice);
    expect(won.status, won.text).to.equal(200);
    const lost = await submit(b.text, bob);
    expect(lost.status, lost.text).to.be.oneOf([400, 409]);
    // the replacement: in the 409 when the service could build it at once, else (the indexer a block behind the
    // winner) from the chain event, at GET /pending
    const offered = (lost.json as { rebuiltTransaction?: string }).rebuiltTransaction;
    const rebuilt =
      offered ??
      (await pollUntil(
        async () => {
          const res = await http(`${api}${API}/pending/${txIdOf(b.text)}`);
          return res.status === 200 ? (res.json as { rebuiltTransaction: string }).rebuiltTransaction : undefined;
        },
        "the rebuilt insert",
        30_000,
      ));
    const second = await submit(rebuilt, bob);
    expect(second.status, second.text).to.equal(200);
    await confirmed((won.json as { transactionHash: string }).transactionHash);
    await confirmed((second.json as { transactionHash: string }).transactionHash);
    const all = await pollUntil(
      async () => {
        const k = await keys();
        return k.length === 3 ? k : undefined;
      },
      "both inserts",
      30_000,
    );
    expect(all).to.deep.equal([key(0x10), key(0x50), key(0x60)]);
    process.stdout.write(
      `      loser answered ${lost.status} ${(lost.json as { error?: string }).error}; served ${JSON.stringify(served)}\n`,
    );
    expect(Object.values(served).reduce((x, y) => x + y, 0)).to.be.at.least(4);
  });
});
