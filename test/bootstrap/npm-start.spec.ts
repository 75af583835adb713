/**
 * `npm start` (scripts/start.ts as a child process) on a fresh DATA_DIR: the service wallet is created (0600, the
 * mnemonic never printed), the protocol is deployed and the banner says what was done; a restart skips it all.
 */
import { expect } from "chai";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SERVICE_WALLET_FILE } from "../../shared/bootstrap/service-wallet";
import { startServiceProcess } from "../support/service-process";
import { txBuilderBuilt } from "../e2e/support/embedded-app";

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
      await first.waitFor(/bootstrap bootstrap: .*\n/, 90_000);
      await first.waitFor(/deployment: PROXY_TX_HASH=[0-9a-f]{64} PROXY_OUTPUT_INDEX=0 SERVICE_KEY_HASH=[0-9a-f]{56}\n/);
    } finally {
      expect(await first.stop()).to.equal(0);
    }
    const out = first.output();
    expect(out).to.match(/service wallet addr_test1\w+ \(key hash [0-9a-f]{56}\) from .*service-wallet\.json \(created now, mode 0600\)/);
    for (const step of ["fund", "init", "deploy", "bootstrap"]) expect(out).to.match(new RegExp(`bootstrap ${step}: .* in tx [0-9a-f]{64} \\(\\d+ ms\\)`));
    const keyFile = join(dataDir, SERVICE_WALLET_FILE);
    expect(statSync(keyFile).mode & 0o777).to.equal(0o600);
    const mnemonic = (JSON.parse(readFileSync(keyFile, "utf8")) as { mnemonic: string }).mnemonic;
    expect(out).to.not.contain(mnemonic.split(" ").slice(0, 3).join(" "));

    const second = startServiceProcess(env);
    try {
      await second.waitFor(/bootstrap bootstrap: .*already on chain.*\n/, 90_000);
    } finally {
      expect(await second.stop()).to.equal(0);
    }
    expect(second.output()).to.contain("(existing)");
    expect(second.output().match(/already on chain/g)).to.have.length(4);
  });
});
