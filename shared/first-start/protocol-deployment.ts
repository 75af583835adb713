/**
 * First-start deployment of the protocol on the embedded devnet, through the same API a production operator uses
 * (README "Production deployment"): split the service wallet's reserve into spare UTxOs, then `init` (proxy
 * pointer), `deploy` (library reference scripts + stake registration) and a `default` bootstrap datum. Each step is
 * built by the tx-builder, sent by the service wallet as its own transaction (signed, submitted, recorded in flight),
 * and awaited until the indexer shows its effect (the next build reads the indexer). Idempotent: a step whose effect is already on
 * chain is skipped, so a restart (or a crash between steps) resumes where it stopped.
 */
import { TypedError } from "../domain/errors";
import { buildPayment } from "../csl/build-payment";
import type { OgmiosUtxo } from "../csl/utxo";
import type { ProtocolParameters } from "../chain/types";
import { sendOwnTransaction, type OwnTransactionPorts } from "../submission/own-transaction";
import type { Wallet } from "../wallet";

export type DeploymentStepName = "fund" | "init" | "deploy" | "bootstrap";

export interface DeploymentStepReport {
  step: DeploymentStepName;
  outcome: "done" | "skipped";
  transactionHash?: string;
  detail: string;
  ms: number;
}

export interface BuildRequest {
  type: "init" | "deploy" | "bootstrap";
  address: string;
  bootstrapDatum?: Record<string, unknown>;
}

export interface BuildResponse {
  unsignedTransaction?: string;
  status?: { code?: string; message?: string };
}

export interface ProtocolSnapshot {
  proxyPolicyId: string;
  pointer: { scriptPointer: string } | null;
  library: Array<{ scriptHash: string; outRef: { txHash: string; index: number } }>;
}

export interface DeploymentPorts {
  /** tx-builder.build */
  build(req: BuildRequest): Promise<BuildResponse>;
  /** where the service wallet's own transactions go: the chain and the in-flight registry (opened on first use) */
  ownTransactions(): Promise<OwnTransactionPorts>;
  /** indexer.protocol */
  protocol(): Promise<ProtocolSnapshot>;
  /** names of the live bootstrap datums (indexer.bootstraps) */
  bootstrapNames(): Promise<string[]>;
  /** UTxOs at an address (chain) and the protocol parameters, for the reserve split */
  utxosAt(address: string): Promise<OgmiosUtxo[]>;
  protocolParameters(): Promise<ProtocolParameters>;
  now(): number;
  /** waits between polls (injected: tests and production both use real time, but never a fixed sleep for state) */
  pause(ms: number): Promise<void>;
}

export interface DeploymentPlan {
  wallet: Wallet;
  /** the default bootstrap datum's name */
  bootstrapName: string;
  /** BootstrapData of the `default` datum (docs/api.md#bootstrap-data), without `name` */
  bootstrapTerms: (nowMs: number) => Record<string, unknown>;
  /** how long one step may take to show up in the indexer */
  stepTimeoutMs?: number;
  /** spare outputs the reserve is split into (lovelace each) */
  spareOutputs?: readonly bigint[];
}

export class DeploymentError extends TypedError<"BUILD_FAILED" | "STEP_TIMEOUT"> {
  override readonly name = "DeploymentError";
}

const YEAR_MS = 365 * 24 * 3600 * 1000;

/** The `default` bootstrap of a fresh devnet: free, 10 certificates per transaction, one year of life. */
export function defaultBootstrapTerms(wallet: Wallet): (nowMs: number) => Record<string, unknown> {
  return (nowMs) => ({
    whitelistedAddresses: [],
    fee: 0,
    feeInterval: 1,
    feeReceiverAddresses: [wallet.enterpriseAddress],
    ttl: nowMs + YEAR_MS,
    transactionLimit: 1000,
    batchSize: 10,
    version: 2,
  });
}

const DEFAULT_SPARES = [5_000_000n, 5_000_000n, 1_000_000_000n, 1_000_000_000n, 1_000_000_000n];

export async function deployProtocol(ports: DeploymentPorts, plan: DeploymentPlan): Promise<DeploymentStepReport[]> {
  const wallet = plan.wallet;
  const timeoutMs = plan.stepTimeoutMs ?? 60_000;
  const reports: DeploymentStepReport[] = [];

  const waitFor = async (what: string, done: () => Promise<boolean>): Promise<void> => {
    const deadline = ports.now() + timeoutMs;
    while (!(await done())) {
      if (ports.now() > deadline) throw new DeploymentError("STEP_TIMEOUT", `${what} did not show up within ${timeoutMs} ms`, { what });
      await ports.pause(250);
    }
  };
  const signAndSubmit = async (unsigned: string): Promise<string> =>
    (await sendOwnTransaction(wallet, unsigned, await ports.ownTransactions())).txId;
  const buildStep = async (req: BuildRequest): Promise<string> => {
    const res = await ports.build(req);
    if (res.status?.code !== "SUCCESS" || !res.unsignedTransaction) {
      throw new DeploymentError(
        "BUILD_FAILED",
        `building the ${req.type} transaction failed: ${res.status?.code ?? "no status"} ${res.status?.message ?? ""}`.trim(),
        {
          type: req.type,
          status: res.status ?? null,
        },
      );
    }
    return res.unsignedTransaction;
  };
  const step = async (
    name: DeploymentStepName,
    isDone: () => Promise<boolean>,
    run: () => Promise<string>,
    detail: string,
  ): Promise<void> => {
    const started = ports.now();
    if (await isDone()) {
      reports.push({ step: name, outcome: "skipped", detail: `${detail} (already on chain)`, ms: 0 });
      return;
    }
    const transactionHash = await run();
    await waitFor(`the ${name} transaction ${transactionHash}`, isDone);
    reports.push({ step: name, outcome: "done", transactionHash, detail, ms: ports.now() - started });
  };

  const reserve = async () => (await ports.utxosAt(wallet.enterpriseAddress)).length > 0;
  const pointerSet = async () => (await ports.protocol()).pointer !== null;
  const libraryDeployed = async () => {
    const p = await ports.protocol();
    const hashes = new Set(p.library.map((l) => l.scriptHash));
    return p.pointer !== null && hashes.has(p.proxyPolicyId) && hashes.has(p.pointer.scriptPointer);
  };
  const bootstrapMinted = async () => (await ports.bootstrapNames()).includes(plan.bootstrapName);

  const spares = plan.spareOutputs ?? DEFAULT_SPARES;
  await step(
    "fund",
    async () => !(await reserve()),
    async () => {
      const payment = buildPayment({
        protocolParameters: await ports.protocolParameters(),
        utxos: await ports.utxosAt(wallet.enterpriseAddress),
        changeAddress: wallet.address,
        outputs: spares.map((lovelace) => ({ address: wallet.address, lovelace })),
      });
      return signAndSubmit(payment.cborHex);
    },
    `split the reserve into ${spares.length} spare UTxOs of the service wallet`,
  );
  await step(
    "init",
    pointerSet,
    async () => signAndSubmit(await buildStep({ type: "init", address: wallet.address })),
    "proxy initialised (pointer minted)",
  );
  await step(
    "deploy",
    libraryDeployed,
    async () => signAndSubmit(await buildStep({ type: "deploy", address: wallet.address })),
    "library reference scripts deployed, state script stake registered",
  );
  await step(
    "bootstrap",
    bootstrapMinted,
    async () =>
      signAndSubmit(
        await buildStep({
          type: "bootstrap",
          address: wallet.address,
          bootstrapDatum: { name: plan.bootstrapName, ...plan.bootstrapTerms(ports.now()) },
        }),
      ),
    `bootstrap datum "${plan.bootstrapName}" minted`,
  );
  return reports;
}
