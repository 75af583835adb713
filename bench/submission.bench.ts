/**
 * Write-path figures on the embedded app as `npm start` runs it (one process, devnet block every 1000 ms, or the
 * faster 200 ms the e2e tests use): first-start bootstrap time (fund, init, deploy, default bootstrap), and the
 * user cycle build → sign → submit → confirmed → verifiable, sequentially, with the submit round trip alone.
 */
import { TEST_ENV } from "../fixtures/mesh/helpers";
import { percentile } from "./percentile";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServiceBroker } from "moleculer";
import { createBrokerOptions } from "../moleculer.config";
import { deployDefaultProtocol, prepareDevnetFirstStart } from "../shared/first-start/devnet-first-start";
import { createChainClient } from "../shared/chain";
import { txIdOf } from "../shared/csl";
import type { OgmiosUtxo } from "../shared/csl/utxo";
import { loadConfig } from "../shared/config/config";
import { httpUrl, listenAddresses } from "../shared/mesh/listen-addresses";
import { createMeshResources } from "../shared/mesh/resources";
import { loadServices } from "../shared/mesh/service-loader";
import { generateMnemonic, Wallet } from "../shared/wallet";

const CYCLES = 10;

const post = async (url: string, body: unknown) => {
  const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};
const waitFor = async (probe: () => Promise<boolean>) => {
  while (!(await probe())) await new Promise((r) => setTimeout(r, 20));
};
const stats = (xs: number[]) => ({ n: xs.length, medianMs: percentile(xs, 50), p95Ms: percentile(xs, 95), maxMs: percentile(xs, 100) });

async function run(blockTimeMs: number): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-submission-"));
  const user = Wallet.fromMnemonic(generateMnemonic());
  const env = {
    ...TEST_ENV,
    DATA_DIR: dataDir,
    NAMESPACE: `bench-${randomUUID()}`,
  };
  const prep = prepareDevnetFirstStart(loadConfig(env), [{ address: user.address, lovelace: 5_000_000_000n }]);
  if (prep.kind !== "ready") throw new Error(prep.kind);
  const mesh = createMeshResources(prep.config, { devnetGenesis: prep.genesis!, devnetBlockTimeMs: blockTimeMs });
  const broker = new ServiceBroker(createBrokerOptions(prep.config, { overrides: { skipProcessEventRegistration: true } }));
  for (const s of loadServices(null, { config: prep.config, now: Date.now, resources: mesh.resources }, join(__dirname, "..", "services"))
    .schemas)
    broker.createService(s);
  const started = Date.now();
  await broker.start();
  const chain = await mesh.resources.chain();
  const steps = await deployDefaultProtocol(
    (a, p) => broker.call(a, p),
    chain.ogmiosUrl,
    await mesh.resources.store(),
    prep.service.wallet,
  );
  const bootstrapMs = Date.now() - started;
  const api = httpUrl(listenAddresses(broker).api!, "/api/v1");
  const client = createChainClient({ url: chain.ogmiosUrl });
  try {
    // a new wallet has one UTxO: prepare-collateral first, as a user's client does
    const prepared = await post(`${api}/transaction/prepare-collateral`, { senderAddress: user.address });
    if (prepared.status !== 200) throw new Error(JSON.stringify(prepared.json));
    const ctx = prepared.json["unsignedTransaction"] as string;
    const cres = await post(`${api}/transaction/submit`, { transaction: ctx, witnessSet: user.signTx(ctx) });
    if (cres.status !== 200) throw new Error(JSON.stringify(cres.json));
    await waitFor(async () => (await fetch(`${api}/transaction/confirm/${txIdOf(ctx)}`)).status === 200);
    const cycles: number[] = [];
    const submits: number[] = [];
    for (let i = 0; i < CYCLES; i++) {
      const hash = createHash("sha256").update(randomBytes(16)).digest("hex");
      const t0 = Date.now();
      const built = await post(`${api}/transaction/build`, {
        type: "default",
        address: user.address,
        certificates: [{ hash, algorithm: "SHA-256", metadata: { i } }],
      });
      if (built.status !== 200) throw new Error(JSON.stringify(built.json));
      const tx = built.json["unsignedTransaction"] as string;
      const s0 = Date.now();
      const sub = await post(`${api}/transaction/submit`, { transaction: tx, witnessSet: user.signTx(tx) });
      submits.push(Date.now() - s0);
      if (sub.status !== 200) throw new Error(JSON.stringify(sub.json));
      const id = txIdOf(tx);
      await waitFor(async () => (await fetch(`${api}/transaction/confirm/${id}`)).status === 200);
      await waitFor(async () => (await fetch(`${api}/verify/${hash}`)).status === 200);
      cycles.push(Date.now() - t0);
    }
    const left = (await client.utxosByAddresses([user.address])) as unknown as OgmiosUtxo[];
    return {
      blockTimeMs,
      bootstrapMs,
      bootstrapSteps: Object.fromEntries(steps.map((s) => [s.step, s.ms])),
      issueConfirmVerify: stats(cycles),
      submitRoundTrip: stats(submits),
      userUtxosAfter: left.length,
    };
  } finally {
    await client.close();
    await broker.stop();
    await mesh.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export default async function (): Promise<Record<string, unknown>> {
  return { npmStartBlockTime: await run(1000), fastBlocks: await run(200) };
}
