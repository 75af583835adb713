/**
 * Fault campaign, load: 20 wallets issue 10 certificates each, all at once, through the gateway and two tx-builder
 * replicas over a real nats-server (the read side in its own process, the devnet in its own). Checked: every
 * certificate confirms and verifies (0 lost), no answer is a 5xx, every build answers 200 or 409, no input is spent
 * twice, and both replicas served builds. The p50/p99 build latency under this load is printed, not asserted.
 */
import { expect } from "chai";
import { generateMnemonic, Wallet } from "../../../shared/wallet";
import { percentile } from "../../../bench/percentile";
import { doubleSpentInputs, IssuingWallet, verifiedTxIds } from "../../../fixtures/faults/issuing-wallet";
import { requireNatsServer } from "../../../fixtures/processes/nats-server";
import { DistributedSystem } from "../../../fixtures/faults/distributed-system";

const WALLETS = 20;
const CERTIFICATES = 10;

describe("fault campaign: load, 20 wallets × 10 certificates through two tx-builder replicas", function () {
  this.timeout(300_000);
  const sys = new DistributedSystem();

  before(async function () {
    requireNatsServer(this);
    await sys.startInfrastructure();
    await Promise.all([
      sys.start("gateway", "gateway"),
      sys.start("reader", "indexer,verifier,library,user-state,credential,stats"),
      sys.startBuilderReplicas(),
    ]);
    await sys.deploy();
  });
  after(() => sys.stop());

  it("loses nothing, answers no 5xx, and every build is 200 or 409", async () => {
    const wallets = Array.from({ length: WALLETS }, () => Wallet.fromMnemonic(generateMnemonic()));
    await sys.fund(wallets);
    const clients = wallets.map((wallet) => new IssuingWallet({ api: () => sys.api, wallet, retryMs: 250, confirmPollMs: 250 }));
    const started = Date.now();
    await Promise.all(
      clients.map(async (c, w) => {
        await c.ensureCollateral();
        for (let n = 0; n < CERTIFICATES; n++) await c.issue(`load-${w}-${n}`);
      }),
    );
    const elapsedMs = Date.now() - started;

    const issued = clients.flatMap((c) => c.confirmed);
    expect(issued).to.have.length(WALLETS * CERTIFICATES);
    for (const c of issued) expect(await verifiedTxIds(sys.api, c.hash), `certificate ${c.hash}`).to.deep.equal([c.txId]);
    expect(doubleSpentInputs(issued), "no input spent by two transactions").to.deep.equal([]);
    expect(clients.flatMap((c) => c.serverErrors)).to.deep.equal([]);
    expect(clients.flatMap((c) => c.refusals)).to.deep.equal([]);
    expect(
      clients.flatMap((c) => c.unverifiedAfterConfirm),
      "read-your-writes",
    ).to.deep.equal([]);
    const builds = clients.flatMap((c) => c.builds);
    const statuses = [...new Set(builds.map((b) => b.status))].sort();
    expect(
      statuses.filter((s) => s !== 200 && s !== 409),
      `build statuses ${statuses.join(",")}`,
    ).to.deep.equal([]);
    expect(Object.keys(sys.buildsServed).sort(), "both replicas built").to.deep.equal(["builder-a", "builder-b"]);
    const ok = builds.filter((b) => b.status === 200).map((b) => b.ms);
    process.stdout.write(
      `      ${issued.length} certificates by ${WALLETS} wallets in ${elapsedMs} ms; lost 0; builds ${builds.length} ` +
        `(${builds.filter((b) => b.status === 409).length} × 409); build latency p50 ${percentile(ok, 50)} ms, p99 ${percentile(ok, 99)} ms; ` +
        `replicas ${JSON.stringify(sys.buildsServed)}\n`,
    );
    const conflicts = new Map<string, number>();
    for (const c of clients) for (const [k, n] of c.conflicts) conflicts.set(k, (conflicts.get(k) ?? 0) + n);
    for (const [k, n] of conflicts) process.stdout.write(`      409 × ${n}: ${k}\n`);
  });
});
