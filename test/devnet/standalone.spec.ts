// `npm run devnet` (scripts/devnet.ts) as a separate process, used the way an application uses a real Ogmios:
// the real client queries, CSL (shared/csl) builds, the wallet (shared/wallet) signs, the client submits and follows.
import { createChainSynchronizationClient, createLedgerStateQueryClient, createTransactionSubmissionClient } from "@cardano-ogmios/client";
import type { Block } from "@cardano-ogmios/schema";
import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { buildPayment } from "../../shared/csl";
import { generateMnemonic, Wallet } from "../../shared/wallet";
import type { DevnetServer } from "../../shared/devnet";
import { contextFor } from "../../fixtures/devnet/ogmios-client-fixture";

const REPO = resolve(__dirname, "..", "..");

/** Starts scripts/devnet.ts on a free port and resolves with its host/port once it prints its URL. */
function startStandalone(env: Record<string, string>): Promise<{ child: ChildProcess; server: DevnetServer; output: string[] }> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/devnet.ts", "--test-control"], {
    cwd: REPO,
    env: { ...process.env, DEVNET_PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  return new Promise((resolvePromise, reject) => {
    child.stderr!.on("data", (d: Buffer) => output.push(d.toString()));
    child.stdout!.on("data", (d: Buffer) => {
      output.push(...d.toString().split("\n").filter(Boolean));
      const match = /listening on ws:\/\/([^:]+):(\d+)/.exec(output.join("\n"));
      if (match) {
        const host = match[1]!;
        const port = Number(match[2]);
        resolvePromise({ child, output, server: { host, port, url: `ws://${host}:${port}`, close: async () => undefined } });
      }
    });
    child.once("exit", (code) => reject(new Error(`devnet exited with ${code}: ${output.join("\n")}`)));
  });
}

describe("npm run devnet (standalone process)", () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child?.pid !== undefined && child.exitCode === null) child.kill("SIGTERM");
  });

  it("serves the real Ogmios client: query, build with CSL, sign, submit, follow the chain", async () => {
    const wallet = Wallet.fromMnemonic(generateMnemonic());
    const payee = Wallet.fromMnemonic(generateMnemonic());
    const started = await startStandalone({ DEVNET_GENESIS: `${wallet.address}=50000000000`, DEVNET_BLOCK_TIME_MS: "20" });
    child = started.child;
    expect(started.output.join("\n")).to.contain(`funded ${wallet.address} 50000000000 lovelace`);

    const queries = await createLedgerStateQueryClient(await contextFor(started.server));
    const submitter = await createTransactionSubmissionClient(await contextFor(started.server));
    const blocks: Block[] = [];
    const sync = await createChainSynchronizationClient(await contextFor(started.server), {
      rollForward: async ({ block }, next) => {
        blocks.push(block);
        next();
      },
      rollBackward: async (_r, next) => next(),
    });
    await sync.resume(["origin"], 5);

    const [protocolParameters, utxos] = await Promise.all([queries.protocolParameters(), queries.utxo({ addresses: [wallet.address] })]);
    const unsigned = buildPayment({
      protocolParameters,
      utxos,
      changeAddress: wallet.address,
      outputs: [{ address: payee.address, lovelace: 7_000_000n }],
    });
    const id = await submitter.submitTransaction(wallet.signTxFull(unsigned.cborHex));
    expect(id).to.equal(unsigned.txId);
    const started2 = Date.now();
    while (!blocks.some((b) => "transactions" in b && b.transactions?.some((t) => t.id === id))) {
      if (Date.now() - started2 > 10_000) throw new Error("the payment never appeared in a block");
      await new Promise((r) => setTimeout(r, 5));
    }
    const received = await queries.utxo({ addresses: [payee.address] });
    expect(received.map((u) => u.value.ada.lovelace)).to.deep.equal([7_000_000n]);
    await sync.shutdown();
    await submitter.shutdown();
    await queries.shutdown();
  });
});
