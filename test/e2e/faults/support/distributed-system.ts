/**
 * The distributed system of the fault campaign, every part a real process on this machine: a nats-server and the
 * devnet (`scripts/devnet.ts`) on fixed loopback ports (so a restarted one is found where it was), and `npm start`
 * processes (scripts/start.ts) in scale mode, each with its own SERVICES and its own DATA_DIR, kept across restarts.
 * A client broker in the test process reaches the actions over NATS (deployment, internal reads).
 *
 * Without MongoDB every process has its own NeDB store, as the DATA_DIR lock requires; tx-builder replicas that
 * must share in-flight records run as brokers in the test process on one store (`startBuilderReplicas`), what a
 * shared MongoDB gives separate pods.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServiceBroker, type ServiceSchema } from "moleculer";
import { createBrokerOptions } from "../../../../moleculer.config";
import { createChainClient } from "../../../../shared/chain";
import { buildPayment } from "../../../../shared/csl";
import type { OgmiosUtxo } from "../../../../shared/csl/utxo";
import { deploymentPortsFor } from "../../../../shared/first-start/devnet-first-start";
import { devnetProtocolConfig, serviceGenesisFunds } from "../../../../shared/first-start/devnet-deployment";
import { defaultBootstrapTerms, deployProtocol } from "../../../../shared/first-start/protocol-deployment";
import type { ServiceDeps } from "../../../../shared/mesh/service-deps";
import { loadServices } from "../../../../shared/mesh/service-loader";
import { createStore, type Store } from "../../../../shared/store";
import { generateMnemonic, Wallet } from "../../../../shared/wallet";
import { http, pollUntil, postJson, testConfig } from "../../../../fixtures/mesh/helpers";
import { startServiceProcess, type ServiceProcess } from "../../../../fixtures/processes/service-process";

const REPO = join(__dirname, "..", "..", "..", "..");
const NATS_BINARY = process.env.NATS_SERVER_BIN ?? "nats-server";

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** A child process that prints `readyLine` once it serves; `kill9` and `stop` wait for its exit. */
export interface Child {
  child: ChildProcess;
  output(): string;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

function spawnUntil(cmd: string, args: string[], env: NodeJS.ProcessEnv, readyLine: RegExp, timeoutMs = 60_000): Promise<Child> {
  const child = spawn(cmd, args, { cwd: REPO, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const exit = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const handle: Child = {
    child,
    output: () => out,
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exit;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exit;
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${cmd} not ready in ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (c: Buffer) => {
      out = (out + c.toString()).slice(-20_000);
      if (readyLine.test(out)) {
        clearTimeout(timer);
        resolve(handle);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    void exit.then(() => {
      clearTimeout(timer);
      reject(new Error(`${cmd} exited before it was ready:\n${out}`));
    });
  });
}

export const startNats = (port: number) =>
  spawnUntil(NATS_BINARY, ["-a", "127.0.0.1", "-p", String(port)], process.env, /Server is ready/, 15_000);

export const startDevnet = (port: number, dataDir: string, genesis: { address: string; lovelace: bigint }[]) =>
  spawnUntil(
    process.execPath,
    ["--require", "tsx/cjs", join(REPO, "scripts", "devnet.ts")],
    {
      ...process.env,
      DEVNET_PORT: String(port),
      DEVNET_DATA_DIR: dataDir,
      DEVNET_BLOCK_TIME_MS: "200",
      DEVNET_GENESIS: genesis.map((g) => `${g.address}=${g.lovelace}`).join(","),
    },
    /devnet listening on ws:\/\/\S+/,
  );

/** The last line of the start banner: ready, or which readiness checks still fail. */
const BANNER_END = /(ready: .* answers? requests|not ready yet \(.*\))\n/;

export class DistributedSystem {
  readonly service = Wallet.fromMnemonic(generateMnemonic());
  readonly funder = Wallet.fromMnemonic(generateMnemonic());
  readonly namespace = `faults-${randomUUID()}`;
  readonly procs = new Map<string, { services: string; proc: ServiceProcess; dataDir: string }>();
  readonly replicas: ServiceBroker[] = [];
  /** builds served per tx-builder replica (observation hook) */
  readonly buildsServed: Record<string, number> = {};
  nats!: Child;
  devnet!: Child;
  natsPort = 0;
  devnetPort = 0;
  gatewayPort = 0;
  client!: ServiceBroker;
  private replicaStore: Store | undefined;
  private readonly dirs: string[] = [];
  private readonly devnetDir: string;

  constructor() {
    this.devnetDir = this.tmp("devnet");
  }

  tmp(label: string): string {
    const d = mkdtempSync(join(tmpdir(), `faults-${label}-`));
    this.dirs.push(d);
    return d;
  }

  get api(): string {
    return `http://127.0.0.1:${this.gatewayPort}/api/v1`;
  }
  get ogmiosUrl(): string {
    return `ws://127.0.0.1:${this.devnetPort}`;
  }
  get natsUrl(): string {
    return `nats://127.0.0.1:${this.natsPort}`;
  }

  env(): Record<string, string> {
    const protocol = devnetProtocolConfig(this.service);
    return {
      TRANSPORTER: this.natsUrl,
      NAMESPACE: this.namespace,
      OGMIOS_URL: this.ogmiosUrl,
      NETWORK: "devnet",
      HOST: "127.0.0.1",
      PROXY_TX_HASH: protocol.proxyOneShot.txHash,
      PROXY_OUTPUT_INDEX: String(protocol.proxyOneShot.index),
      SERVICE_KEY_HASH: protocol.serviceKeyHash,
      SERVICE_ADDRESS: this.service.address,
      RATE_LIMIT_POST_PER_MINUTE: "0",
      ENABLE_METRICS: "false",
    };
  }

  async startInfrastructure(): Promise<void> {
    [this.natsPort, this.devnetPort, this.gatewayPort] = [await freePort(), await freePort(), await freePort()];
    this.nats = await startNats(this.natsPort);
    await this.startDevnet();
    const config = testConfig({ ...this.env(), NODE_ID: `client-${randomUUID().slice(0, 8)}` });
    this.client = new ServiceBroker(createBrokerOptions(config, { overrides: { skipProcessEventRegistration: true } }));
    await this.client.start();
  }

  async startDevnet(): Promise<void> {
    this.devnet = await startDevnet(this.devnetPort, this.devnetDir, [
      ...serviceGenesisFunds(this.service),
      { address: this.funder.address, lovelace: 50_000_000_000n },
    ]);
  }

  async restartNats(): Promise<void> {
    await this.nats.stop();
    this.nats = await startNats(this.natsPort);
  }

  /** Starts (or restarts, on its DATA_DIR) the process `name` running `services`, and waits for its banner. */
  async start(name: string, services: string): Promise<ServiceProcess> {
    const known = this.procs.get(name);
    const dataDir = known?.dataDir ?? this.tmp(name);
    const proc = startServiceProcess({
      ...this.env(),
      SERVICES: services,
      DATA_DIR: dataDir,
      NODE_ID: name,
      ...(services.split(",").includes("gateway") ? { PORT: String(this.gatewayPort) } : {}),
    });
    this.procs.set(name, { services, proc, dataDir });
    await proc.waitFor(BANNER_END, 90_000);
    return proc;
  }

  async kill9(name: string): Promise<void> {
    const p = this.procs.get(name)!.proc;
    p.child.kill("SIGKILL");
    await p.exit;
  }

  async restart(name: string): Promise<ServiceProcess> {
    return this.start(name, this.procs.get(name)!.services);
  }

  /** Two tx-builder + submitter replicas (Moleculer nodes) in this process on one shared store. */
  async startBuilderReplicas(ids: readonly string[] = ["builder-a", "builder-b"]): Promise<void> {
    const store = (this.replicaStore = await createStore({ dataDir: this.tmp("replicas") }));
    for (const nodeId of ids) {
      const config = testConfig({ ...this.env(), DATA_DIR: this.tmp(nodeId), NODE_ID: nodeId, LOG_LEVEL: "silent" });
      const deps: ServiceDeps = {
        config,
        now: Date.now,
        resources: { store: async () => store, chain: async () => ({ ogmiosUrl: this.ogmiosUrl, network: "devnet", devnet: null }) },
      };
      const broker = new ServiceBroker(createBrokerOptions(config, { overrides: { skipProcessEventRegistration: true } }));
      for (const schema of loadServices(["tx-builder", "submitter"], deps, join(REPO, "services")).schemas as ServiceSchema[]) {
        if (schema.name === "tx-builder")
          schema.hooks = { before: { build: () => void (this.buildsServed[nodeId] = (this.buildsServed[nodeId] ?? 0) + 1) } };
        broker.createService(schema);
      }
      this.replicas.push(broker);
    }
    await Promise.all(this.replicas.map((b) => b.start()));
  }

  /** init → library → `default` bootstrap through the services over NATS. */
  async deploy(): Promise<void> {
    await this.client.waitForServices(["indexer", "tx-builder", "submitter"], 90_000);
    const ports = deploymentPortsFor((action, params) => this.client.call(action, params), this.ogmiosUrl, Date.now);
    try {
      const steps = await deployProtocol(ports, {
        wallet: this.service,
        bootstrapName: "default",
        bootstrapTerms: defaultBootstrapTerms(this.service),
      });
      if (steps.some((s) => s.outcome !== "done" && s.outcome !== "skipped")) throw new Error(`deployment: ${JSON.stringify(steps)}`);
    } finally {
      await ports.close();
    }
  }

  /** Pays each wallet a spending output and a 5 ADA collateral output, in one transaction of the funder. */
  async fund(wallets: readonly Wallet[], lovelace = 300_000_000n): Promise<void> {
    const chain = createChainClient({ url: this.ogmiosUrl });
    try {
      const split = buildPayment({
        protocolParameters: await chain.protocolParameters(),
        utxos: (await chain.utxosByAddresses([this.funder.address])) as unknown as OgmiosUtxo[],
        changeAddress: this.funder.address,
        outputs: wallets.flatMap((w) => [
          { address: w.address, lovelace },
          { address: w.address, lovelace: 5_000_000n },
        ]),
      });
      const res = await postJson(`${this.api}/transaction/submit`, {
        transaction: split.cborHex,
        witnessSet: this.funder.signTx(split.cborHex),
      });
      if (res.status !== 200) throw new Error(`funding: ${res.status} ${res.text}`);
      await pollUntil(
        async () => ((await http(`${this.api}/transaction/confirm/${split.txId}`)).status === 200 ? true : undefined),
        "the funding transaction",
        60_000,
      );
    } finally {
      await chain.close();
    }
  }

  async stop(): Promise<void> {
    for (const b of this.replicas) await b.stop().catch(() => undefined);
    await this.replicaStore?.close().catch(() => undefined);
    await this.client?.stop().catch(() => undefined);
    await Promise.all([...this.procs.values()].map((p) => p.proc.stop()));
    await this.devnet?.stop();
    await this.nats?.stop();
    for (const d of this.dirs) rmSync(d, { recursive: true, force: true });
  }
}
