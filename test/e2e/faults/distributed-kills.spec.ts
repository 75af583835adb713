/**
 * Fault campaign, distributed over a real nats-server: every service in its own `npm start` process (gateway,
 * tx-builder, submitter, indexer, verifier, user-state; library, credential and stats together), the devnet in its
 * own. While five wallets issue certificates without pause, the campaign kills each service process in turn with
 * SIGKILL and restarts it on its DATA_DIR, then restarts the NATS server, then kills and restarts the devnet
 * (its chain persisted under its data folder) while the indexer follows it, then freezes it for five seconds. After
 * every fault each wallet must confirm a new certificate within one minute of the restart; at the end no confirmed
 * certificate is lost (each
 * still confirms and verifies), no input was spent twice, and the restarted read side caught up.
 */
import { expect } from "chai";
import { generateMnemonic, Wallet } from "../../../shared/wallet";
import { http } from "../../../fixtures/mesh/helpers";
import { doubleSpentInputs, IssuingWallet, verifiedTxIds } from "../../../fixtures/faults/issuing-wallet";
import { requireNatsServer } from "../../../fixtures/processes/nats-server";
import { DistributedSystem } from "../../../fixtures/faults/distributed-system";

const WALLETS = 5;
/** one process per service under test; the rest of the read side shares one */
const PROCESSES: Record<string, string> = {
  gateway: "gateway",
  "tx-builder": "tx-builder",
  submitter: "submitter",
  indexer: "indexer",
  verifier: "verifier",
  "user-state": "user-state",
  rest: "library,credential,stats",
};

describe("fault campaign: kill -9 of each service process, NATS and devnet restarts, while five wallets issue", function () {
  this.timeout(600_000);
  const sys = new DistributedSystem();
  let clients: IssuingWallet[] = [];
  let running: Promise<void> | undefined;
  let stopping = false;
  const faults: string[] = [];

  before(async function () {
    requireNatsServer(this);
    await sys.startInfrastructure();
    await Promise.all(Object.entries(PROCESSES).map(([name, services]) => sys.start(name, services)));
    await sys.deploy();
    const wallets = Array.from({ length: WALLETS }, () => Wallet.fromMnemonic(generateMnemonic()));
    await sys.fund(wallets);
    clients = wallets.map((wallet) => new IssuingWallet({ api: () => sys.api, wallet, retryMs: 300, stopped: () => stopping }));
    await Promise.all(clients.map((c) => c.ensureCollateral()));
    running = Promise.all(
      clients.map(async (c, w) => {
        for (let n = 0; !stopping; n++) {
          try {
            await c.issue(`w${w}-${n}`);
          } catch (err) {
            if (!stopping) throw err;
          }
        }
      }),
    ).then(() => undefined);
    running.catch(() => undefined);
  });
  after(async () => {
    stopping = true;
    await running?.catch(() => undefined);
    await sys.stop();
  });

  /** Resolves once every wallet confirmed one more certificate than now; fails after a minute. */
  const everyWalletIssues = async (fault: string) => {
    const counts = clients.map((c) => c.confirmed.length);
    const from = Date.now();
    for (;;) {
      const behind = clients.filter((c, i) => c.confirmed.length <= counts[i]!).length;
      if (behind === 0) break;
      if (Date.now() - from > 60_000) throw new Error(`after ${fault}: ${behind} of ${WALLETS} wallets issued nothing for a minute`);
      await Promise.race([running, new Promise((r) => setTimeout(r, 200))]);
    }
    faults.push(`${fault} ${Date.now() - from} ms`);
  };

  for (const name of ["gateway", "tx-builder", "submitter", "indexer", "verifier", "user-state"]) {
    it(`kill -9 of the ${name} process: it restarts, catches up, and every wallet issues again within a minute`, async () => {
      await everyWalletIssues(`warm-up before ${name}`);
      await sys.kill9(name);
      await new Promise((r) => setTimeout(r, 500)); // the wallets run into the missing service meanwhile
      await sys.restart(name);
      await everyWalletIssues(`kill -9 ${name}`);
      if (name === "verifier" || name === "indexer") {
        // the restarted read side has everything confirmed so far
        for (const c of clients.flatMap((x) => x.confirmed)) expect(await verifiedTxIds(sys.api, c.hash)).to.include(c.txId);
      }
    });
  }

  it("the NATS server restarted mid-load: every node reconnects and every wallet issues again within a minute", async () => {
    await everyWalletIssues("warm-up before NATS");
    await sys.restartNats();
    await everyWalletIssues("NATS restart");
  });

  it("the devnet (its own process) killed and restarted mid-sync: the indexer resumes, every wallet issues again within a minute", async () => {
    await everyWalletIssues("warm-up before the devnet");
    await sys.devnet.kill9();
    await new Promise((r) => setTimeout(r, 500));
    await sys.startDevnet();
    await everyWalletIssues("devnet restart");
  });

  it("the devnet frozen (SIGSTOP) for five seconds, its connections open but silent: every wallet issues again within a minute", async () => {
    await everyWalletIssues("warm-up before freezing the devnet");
    sys.devnet.child.kill("SIGSTOP");
    await new Promise((r) => setTimeout(r, 5000));
    sys.devnet.child.kill("SIGCONT");
    await everyWalletIssues("devnet frozen 5 s");
  });

  it("lost no confirmed certificate and spent no input twice", async () => {
    stopping = true;
    await running;
    const issued = clients.flatMap((c) => c.confirmed);
    for (const c of issued) {
      expect((await http(`${sys.api}/transaction/confirm/${c.txId}`)).status, `confirm ${c.txId}`).to.equal(200);
      expect(await verifiedTxIds(sys.api, c.hash), `certificate ${c.hash}`).to.include(c.txId);
    }
    expect(doubleSpentInputs(issued)).to.deep.equal([]);
    const serverErrors = clients.flatMap((c) => c.serverErrors);
    const refusals = clients.flatMap((c) => c.refusals);
    process.stdout.write(
      `      ${issued.length} certificates confirmed by ${WALLETS} wallets across ${faults.length} recoveries; lost 0; ` +
        `${clients.reduce((n, c) => n + c.dropped, 0)} submitted transactions dropped and rebuilt; ` +
        `${serverErrors.length} non-503 5xx answers; ${refusals.length} other refusals\n      recoveries: ${faults.join("; ")}\n`,
    );
    if (serverErrors.length + refusals.length > 0)
      process.stdout.write(`      ${[...serverErrors, ...refusals].slice(0, 10).join("\n      ")}\n`);
    expect(serverErrors, "no 5xx other than 503 while services restart").to.deep.equal([]);
    expect(refusals).to.deep.equal([]);
  });
});
