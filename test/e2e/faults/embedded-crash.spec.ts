/**
 * Fault campaign, embedded: `npm start` (scripts/start.ts as a child process) is killed with SIGKILL while a
 * wallet issues — right after a submission was accepted, so a transaction dies with the in-memory mempool and its
 * in-flight record stays behind in the store. Restarted on the same DATA_DIR, the same wallet issues again within
 * 30 s (the dead record is released at start-up, not at the end of its validity window), and every certificate
 * confirmed before the crash still verifies.
 */
import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { txIdOf } from "../../../shared/csl";
import { SERVICE_WALLET_FILE } from "../../../shared/first-start/service-wallet";
import { walletFromKeyFile } from "../../../shared/wallet";
import { http, postJson } from "../../../fixtures/mesh/helpers";
import { IssuingWallet, verifiedTxIds, doubleSpentInputs } from "../../../fixtures/faults/issuing-wallet";
import { startServiceProcess, type ServiceProcess } from "../../../fixtures/processes/service-process";

const READY = /"msg":"ready: (http:\/\/[^"\s]+\/api\/v1) answers requests"/;

describe("fault campaign: kill -9 of `npm start` mid-issuance, restart on the same DATA_DIR", function () {
  this.timeout(180_000);
  let dataDir: string;
  let app: ServiceProcess | undefined;
  let api = "";
  const env = () => ({ DATA_DIR: dataDir, ENABLE_METRICS: "false", RATE_LIMIT_POST_PER_MINUTE: "0" });

  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), "fault-embedded-"));
  });
  after(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("loses no confirmed certificate, and the same wallet issues again within 30 s of the restart", async () => {
    app = startServiceProcess(env());
    api = (await app.waitFor(READY, 120_000))[1]!;
    // the embedded devnet funds the service wallet at genesis: the test issues with it, as its owner would
    const wallet = walletFromKeyFile(join(dataDir, SERVICE_WALLET_FILE));
    const client = new IssuingWallet({ api: () => api, wallet });
    await client.ensureCollateral();
    for (let n = 0; n < 4; n++) await client.issue(`before-${n}`);

    // mid-issuance: a build accepted by submit, then SIGKILL before any block can include it
    const built = await postJson(`${api}/transaction/build`, {
      type: "default",
      address: wallet.address,
      certificates: [{ hash: "cd".repeat(32), algorithm: "SHA-256", metadata: { uv_tid: "diploma" } }],
    });
    expect(built.status, built.text).to.equal(200);
    const tx = (built.json as { unsignedTransaction: string }).unsignedTransaction;
    const submitted = await postJson(`${api}/transaction/submit`, { transaction: tx, witnessSet: wallet.signTx(tx) });
    expect(submitted.status, submitted.text).to.equal(200);
    app.child.kill("SIGKILL");
    expect(await app.exit).to.equal(null);
    expect(app.child.signalCode).to.equal("SIGKILL");

    app = startServiceProcess(env());
    api = (await app.waitFor(READY, 120_000))[1]!;
    const restartedAt = Date.now();
    const after = new IssuingWallet({ api: () => api, wallet, certificateTimeoutMs: 30_000 });
    const again = await after.issue("after-restart");
    const waitedMs = Date.now() - restartedAt;
    process.stdout.write(
      `      first certificate after kill -9 and restart: ${waitedMs} ms after ready (${after.builds.length} builds, statuses ${[
        ...new Set(after.builds.map((b) => b.status)),
      ].join("/")})\n`,
    );
    expect(again.txId).to.match(/^[0-9a-f]{64}$/);

    const issued = [...client.confirmed, ...after.confirmed];
    for (const c of issued) expect(await verifiedTxIds(api, c.hash), `certificate ${c.hash}`).to.deep.equal([c.txId]);
    // the killed transaction never landed (the mempool died with the process) or landed exactly once
    const killed = await verifiedTxIds(api, "cd".repeat(32));
    expect(killed.length).to.be.at.most(1);
    if (killed.length === 1) expect(killed[0]).to.equal(txIdOf(tx));
    expect(doubleSpentInputs(issued)).to.deep.equal([]);
    expect([...client.serverErrors, ...after.serverErrors]).to.deep.equal([]);
    expect((await http(`${api}/transaction/confirm/${again.txId}`)).status).to.equal(200);
  });
});
