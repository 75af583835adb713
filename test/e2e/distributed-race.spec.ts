/**
 * Scale mode across processes on a real nats-server: the devnet runs as its own process (`npm run devnet`), the
 * gateway and the read side (indexer, verifier, library) run as `npm start` processes with SERVICES, and the
 * write side runs as TWO replicas (two Moleculer nodes, each with tx-builder + submitter) that NATS balances.
 *
 * Shared state, honestly: every process needs a store and MONGO_URL is not available here. A SQLite store belongs to
 * one process (DATA_DIR lock), so separate tx-builder PROCESSES would each have their own in-flight registry and
 * could not see each other's claims. The two replicas therefore run as two brokers in ONE process sharing one SQLite
 * store (what a shared MongoDB gives separate pods); everything else shares state only through NATS actions.
 * The race: one wallet issues many certificates at once through the gateway; both replicas build for it.
 * Checked: no input is spent by two submitted transactions, no submission is refused as a double spend, every
 * certificate lands and verifies, and both replicas served builds.
 */
import { startDevnetProcess } from "../../fixtures/processes/devnet-process";
import { expect } from "chai";
import type { ChildProcess } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServiceBroker, type ServiceSchema } from "moleculer";
import { createBrokerOptions } from "../../moleculer.config";
import { deployDefaultProtocol } from "../../shared/first-start/devnet-first-start";
import { devnetProtocolConfig, serviceGenesisFunds } from "../../shared/first-start/devnet-deployment";
import { createChainClient, type ChainClient } from "../../shared/chain";
import { buildPayment, decodeTx } from "../../shared/csl";
import type { OgmiosUtxo } from "../../shared/csl/utxo";
import type { ServiceDeps } from "../../shared/mesh/service-deps";
import { loadServices } from "../../shared/mesh/service-loader";
import { createStore, type Store } from "../../shared/store";
import { generateMnemonic, Wallet } from "../../shared/wallet";
import { http, pollUntil, postJson, testConfig } from "../../fixtures/mesh/helpers";
import { natsServerAvailable, startNatsServer, type NatsServerHandle } from "../../fixtures/processes/nats-server";
import { startServiceProcess, type ServiceProcess } from "../../fixtures/processes/service-process";
import { txBuilderBuilt } from "../../fixtures/processes/embedded-app";

const REPO = join(__dirname, "..", "..");
const CERTIFICATES = 8;

describe("e2e: distributed over NATS, two tx-builder replicas racing for one wallet", function () {
  this.timeout(240_000);
  const service = Wallet.fromMnemonic(generateMnemonic());
  const user = Wallet.fromMnemonic(generateMnemonic());
  const dirs: string[] = [];
  let nats: NatsServerHandle | undefined;
  let devnet: { child: ChildProcess; url: string } | undefined;
  const processes: ServiceProcess[] = [];
  const brokers: ServiceBroker[] = [];
  let store: Store | undefined;
  let client: ChainClient | undefined;
  let api = "";
  const buildsServed: Record<string, number> = {};

  const tmp = (label: string) => {
    const d = mkdtempSync(join(tmpdir(), `dist-${label}-`));
    dirs.push(d);
    return d;
  };

  before(async function () {
    if (!natsServerAvailable() || !txBuilderBuilt()) {
      const reason = !natsServerAvailable()
        ? "nats-server is not installed (apt-get install nats-server)"
        : "the tx-builder service is not built yet";
      if (process.env.CI) throw new Error(reason);
      process.stdout.write(`    NOT RUN: ${reason}\n`);
      this.skip();
    }
    nats = await startNatsServer();
    devnet = await startDevnetProcess([...serviceGenesisFunds(service), { address: user.address, lovelace: 3_000_000_000n }]);
    const protocol = devnetProtocolConfig(service);
    const env: Record<string, string> = {
      TRANSPORTER: nats.url,
      NAMESPACE: `dist-${randomUUID()}`,
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

    // the write side: two replicas (nodes) in this process, one shared store
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
      for (const schema of loadServices(["tx-builder", "submitter"], deps, join(REPO, "services")).schemas as ServiceSchema[]) {
        if (schema.name === "tx-builder") {
          // observation only: which replica served each build
          schema.hooks = { before: { build: () => void (buildsServed[nodeId] = (buildsServed[nodeId] ?? 0) + 1) } };
        }
        broker.createService(schema);
      }
      brokers.push(broker);
    }
    await Promise.all(brokers.map((b) => b.start()));
    api = (await gateway.waitFor(/"api":"(http:\/\/[^"\s]+\/api\/v1)"/))[1]!;
    await reader.waitFor(/"mode":"scale/);
    await brokers[0]!.waitForServices(["indexer", "verifier", "library", "tx-builder", "submitter"], 60_000);
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

  it("deploys through the mesh, then lands every certificate of one wallet built by both replicas at once, without a double-spent input", async () => {
    const steps = await deployDefaultProtocol((action, params) => brokers[0]!.call(action, params), devnet!.url, store!, service);
    expect(steps.map((s) => s.outcome)).to.deep.equal(["done", "done", "done", "done"]);

    // the user's wallet: a handful of UTxOs to race for, and its 5 ADA collateral
    const split = buildPayment({
      protocolParameters: await client!.protocolParameters(),
      utxos: (await client!.utxosByAddresses([user.address])) as unknown as OgmiosUtxo[],
      changeAddress: user.address,
      outputs: [
        ...Array.from({ length: CERTIFICATES }, () => ({ address: user.address, lovelace: 40_000_000n })),
        { address: user.address, lovelace: 5_000_000n },
      ],
    });
    const splitRes = await postJson(`${api}/transaction/submit`, { transaction: split.cborHex, witnessSet: user.signTx(split.cborHex) });
    expect(splitRes.status, splitRes.text).to.equal(200);
    await pollUntil(
      async () => ((await http(`${api}/transaction/confirm/${split.txId}`)).status === 200 ? true : undefined),
      "the split",
      30_000,
    );

    const refusals: string[] = [];
    let lostRaces = 0;
    const submitted: Array<{ txId: string; cbor: string; hash: string }> = [];
    const started = Date.now();
    const issue = async (n: number) => {
      const hash = createHash("sha256").update(randomBytes(16)).update(String(n)).digest("hex");
      for (let attempt = 0; attempt < 60; attempt++) {
        const built = await postJson(`${api}/transaction/build`, {
          type: "default",
          address: user.address,
          certificates: [{ hash, algorithm: "SHA-256", metadata: { n } }],
        });
        const body = built.json as { unsignedTransaction?: string; status?: { code?: string } };
        if (built.status === 409 || body.status?.code === "PENDING_TRANSACTION") {
          await new Promise((r) => setTimeout(r, 200)); // the client's retry pause, as a wallet app would wait
          continue;
        }
        // A build racing another replica's transaction answers PENDING_TRANSACTION (above); anything else fails.
        expect(built.status, built.text).to.equal(200);
        const tx = body.unsignedTransaction!;
        const res = await postJson(`${api}/transaction/submit`, { transaction: tx, witnessSet: user.signTx(tx) });
        const refusal = res.json as { error?: string; code?: number };
        if ((res.status === 409 && refusal.error === "INPUTS_IN_FLIGHT") || (res.status === 400 && refusal.code === 3117)) {
          // Two builds of one wallet took the same state at once (a build never locks a wallet): the later
          // submission loses the race — refused while the winner is in flight (409), or by the ledger once the
          // winner is in a block (3117) — and the client builds again on the winner's output.
          lostRaces++;
          continue;
        }
        if (res.status !== 200) {
          refusals.push(`${res.status} ${res.text}`);
          continue;
        }
        submitted.push({ txId: (res.json as { transactionHash: string }).transactionHash, cbor: tx, hash });
        return;
      }
      throw new Error(`certificate ${n} never got a transaction`);
    };
    await Promise.all(Array.from({ length: CERTIFICATES }, (_, n) => issue(n)));

    expect(refusals, "no submission refused for any other reason").to.deep.equal([]);
    const inputs = submitted.flatMap((s) => decodeTx(s.cbor).inputs.map((r) => `${r.txHash}#${r.index}`));
    expect(new Set(inputs).size, "no input spent by two transactions").to.equal(inputs.length);

    for (const s of submitted) {
      await pollUntil(
        async () => ((await http(`${api}/transaction/confirm/${s.txId}`)).status === 200 ? true : undefined),
        `confirmation of ${s.txId}`,
        60_000,
      );
      // Read-your-writes across processes: once confirm answers 200 the verifier (another process) has it.
      const r = await http(`${api}/verify/${s.hash}`);
      expect(r.status, `verify right after confirm: ${r.text}`).to.equal(200);
      expect((r.json as Array<{ transactionHash: string }>).map((x) => x.transactionHash)).to.deep.equal([s.txId]);
    }
    const elapsed = Date.now() - started;
    process.stdout.write(
      `      ${CERTIFICATES} certificates of one wallet, both replicas: ${elapsed} ms to all verified; ${lostRaces} lost races rebuilt; builds served ${JSON.stringify(buildsServed)}\n`,
    );
    expect(Object.keys(buildsServed).sort(), "both replicas built").to.deep.equal(["builder-a", "builder-b"]);
  });
});
