/**
 * `npm start` (scripts/start.ts as a child process) on a fresh DATA_DIR: the service wallet is created (0600, the
 * mnemonic never printed), the protocol is deployed and the banner says what was done; a restart skips it all.
 */
import { expect } from "chai";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SERVICE_WALLET_FILE } from "../../shared/first-start/service-wallet";
import { createServer } from "node:net";
import { generateMnemonic, Wallet } from "../../shared/wallet";
import { http, postJson } from "../../fixtures/mesh/helpers";
import { startServiceProcess } from "../../fixtures/processes/service-process";
import { txBuilderBuilt } from "../../fixtures/processes/embedded-app";

/** The start-up record after the readiness wait (piped, the banner's lines are JSON records). */
const READY = /"msg":"ready: http:\/\/[^"]* answers requests"/;

interface StartRecord {
  msg: string;
  bootstrap?: {
    outcome: string;
    serviceWallet?: { address: string; paymentKeyHash: string; keySource: string };
    steps?: { step: string; outcome: string; detail: string; transactionHash?: string; ms: number }[];
    deployment?: { proxyTxHash: string; proxyOutputIndex: number; serviceKeyHash: string };
  };
}

/** The banner's record in a start's output. */
function startRecordOf(output: string): StartRecord {
  const records = output
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as StartRecord & { mod?: string });
  const found = records.find((r) => r.mod === "start" && r.msg.startsWith("started:"));
  if (!found) throw new Error(`no start record in:\n${output}`);
  return found;
}

describe("bootstrap: first `npm start` on the embedded devnet", function () {
  this.timeout(120_000);
  let dataDir: string;
  before(function () {
    if (!txBuilderBuilt()) {
      process.stdout.write("    NOT RUN: the tx-builder service is not built yet (the bootstrap builds through it)\n");
      this.skip();
    }
    dataDir = mkdtempSync(join(tmpdir(), "npm-start-"));
  });
  after(() => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("deploys the protocol on the first start, prints it in the banner, and skips it on restart", async () => {
    const env = { DATA_DIR: dataDir, ENABLE_METRICS: "false", RATE_LIMIT_POST_PER_MINUTE: "0" };
    const first = startServiceProcess(env);
    try {
      await first.waitFor(READY, 90_000);
    } finally {
      expect(await first.stop()).to.equal(0);
    }
    // Piped, the banner is one JSON record (mod "start") with its facts.
    const started = startRecordOf(first.output());
    expect(started.msg).to.match(/^started: embedded \(single process\); API on http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const b = started.bootstrap!;
    expect(b.outcome).to.equal("done");
    expect(b.serviceWallet!.address).to.match(/^addr_test1\w+$/);
    expect(b.serviceWallet!.paymentKeyHash).to.match(/^[0-9a-f]{56}$/);
    expect(b.serviceWallet!.keySource).to.match(/service-wallet\.json \(created now, mode 0600\)$/);
    expect(b.steps!.map((st) => st.step)).to.deep.equal(["fund", "init", "deploy", "bootstrap"]);
    for (const st of b.steps!) {
      expect(st.outcome).to.equal("done");
      expect(st.transactionHash).to.match(/^[0-9a-f]{64}$/);
      expect(st.ms).to.be.a("number");
    }
    expect(b.deployment!.proxyTxHash).to.match(/^[0-9a-f]{64}$/);
    expect(b.deployment!.proxyOutputIndex).to.equal(0);
    expect(b.deployment!.serviceKeyHash).to.equal(b.serviceWallet!.paymentKeyHash);
    const out = first.output();
    const keyFile = join(dataDir, SERVICE_WALLET_FILE);
    expect(statSync(keyFile).mode & 0o777).to.equal(0o600);
    const mnemonic = (JSON.parse(readFileSync(keyFile, "utf8")) as { mnemonic: string }).mnemonic;
    expect(out).to.not.contain(mnemonic.split(" ").slice(0, 3).join(" "));

    const second = startServiceProcess(env);
    try {
      await second.waitFor(READY, 90_000);
    } finally {
      expect(await second.stop()).to.equal(0);
    }
    const again = startRecordOf(second.output()).bootstrap!;
    expect(again.serviceWallet!.keySource).to.match(/\(existing\)$/);
    expect(again.steps!.filter((st) => st.outcome === "skipped" && /already on chain/.test(st.detail))).to.have.length(4);
  });

  it("is ready only once the protocol is deployed and indexed: until then /ready answers 503 and builds 503 with Retry-After", async () => {
    const freePort = () =>
      new Promise<number>((resolve) => {
        const srv = createServer().listen(0, "127.0.0.1", () => {
          const port = (srv.address() as { port: number }).port;
          srv.close(() => resolve(port));
        });
      });
    const [port, healthPort] = [await freePort(), await freePort()];
    const fresh = mkdtempSync(join(tmpdir(), "npm-start-ready-"));
    const app = startServiceProcess({
      DATA_DIR: fresh,
      PORT: String(port),
      HEALTH_PORT: String(healthPort),
      ENABLE_METRICS: "false",
      RATE_LIMIT_POST_PER_MINUTE: "0",
    });
    const someone = Wallet.fromMnemonic(generateMnemonic()).address; // an empty wallet
    const seen: string[] = [];
    try {
      let readyLine = false;
      void app.waitFor(READY, 90_000).then(() => (readyLine = true));
      // Poll from the moment the probe server answers until the banner says ready.
      for (;;) {
        const ready = await http(`http://127.0.0.1:${healthPort}/ready`).catch(() => undefined);
        const build = await postJson(`http://127.0.0.1:${port}/api/v1/transaction/build`, {
          type: "default",
          address: someone,
          certificates: [{ hash: "ab".repeat(32) }],
        }).catch(() => undefined);
        if (ready && build) {
          const code =
            (build.json as { error?: string; status?: { code?: string } } | undefined)?.error ??
            (build.json as { status?: { code?: string } }).status?.code;
          seen.push(`${ready.status}/${build.status}/${code}`);
          expect(build.text, "never the misleading 'no bootstrap datum' answer").to.not.match(/No bootstrap datum/);
          if (ready.status === 503) {
            if (build.status === 503) expect(build.headers.get("retry-after")).to.equal("5");
          } else {
            expect(build.status, "ready means usable: the build is judged on its merits").to.not.equal(503);
          }
        }
        if (readyLine) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(
        seen.some((s) => s.startsWith("503/503/PROTOCOL_DEPLOYING")),
        `seen: ${seen.join(" ")}`,
      ).to.equal(true);
      const after = await http(`http://127.0.0.1:${healthPort}/ready`);
      expect(after.status, after.text).to.equal(200);
      const build = await postJson(`http://127.0.0.1:${port}/api/v1/transaction/build`, {
        type: "default",
        address: someone,
        certificates: [{ hash: "ab".repeat(32) }],
      });
      expect((build.json as { status: { code: string } }).status.code).to.equal("INSUFFICIENT_FUNDS");
    } finally {
      expect(await app.stop()).to.equal(0);
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
