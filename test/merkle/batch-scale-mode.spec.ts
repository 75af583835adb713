/**
 * Merkle batches in scale mode, end to end: the gateway runs in its own process and hands `POST /batch/build` to
 * tx-builder in another one over a real nats-server whose max_payload (1 MB) is far below the batch (100,000
 * hashes, 3.2 MB). The batch is streamed across, built into a real transaction, signed by a real wallet, confirmed
 * by the devnet, and its leaves' proofs check with `verify-proof` against the chain. (tx-builder and the verifier
 * share one process here because in scale mode they share one store: MongoDB in production.)
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { http, pollUntil, postJson } from "../../fixtures/mesh/helpers";
import { verifyProofCli } from "../../fixtures/merkle/verify-proof-cli";
import { DistributedSystem } from "../../fixtures/faults/distributed-system";
import { IssuingWallet } from "../../fixtures/faults/issuing-wallet";
import { requireNatsServer } from "../../fixtures/processes/nats-server";
import { hashPackedLeaves, rootOfLevels, treeLevels } from "../../shared/merkle";
import { txIdOf } from "../../shared/csl";
import { generateMnemonic, Wallet } from "../../shared/wallet";
import type { AnchoredProof } from "../../shared/verifier/batch-lookup";

describe("merkle batches in scale mode: 100,000 hashes from the gateway to tx-builder across NATS, anchored and proved", function () {
  this.timeout(300_000);
  const sys = new DistributedSystem();

  before(async function () {
    requireNatsServer(this);
    await sys.startInfrastructure();
    await Promise.all([
      sys.start("gateway", "gateway"),
      sys.start("backend", "indexer,verifier,tx-builder,submitter,library,user-state,credential,stats"),
    ]);
    await sys.deploy();
  });
  after(() => sys.stop());

  it("builds the batch on the remote tx-builder, confirms it, and serves proofs that check against the chain", async () => {
    const wallet = Wallet.fromMnemonic(generateMnemonic());
    await sys.fund([wallet]);
    await new IssuingWallet({ api: () => sys.api, wallet, retryMs: 250, confirmPollMs: 250 }).ensureCollateral();

    const n = 100_000;
    const packed = randomBytes(32 * n);
    const built = await http(`${sys.api}/batch/build?address=${wallet.address}`, {
      method: "POST",
      headers: { "Content-Type": "application/octet-stream" },
      body: packed,
    });
    expect(built.status, built.text).to.equal(200);
    const body = built.json as { unsignedTransaction: string; merkleRoot: string; leafCount: number };
    expect(body.leafCount).to.equal(n);
    expect(body.merkleRoot).to.equal(rootOfLevels(treeLevels(hashPackedLeaves(packed))).toString("hex"));

    const tx = body.unsignedTransaction;
    const submitted = await postJson(`${sys.api}/transaction/submit`, { transaction: tx, witnessSet: wallet.signTx(tx) });
    expect(submitted.status, submitted.text).to.equal(200);
    const txId = txIdOf(tx);
    await pollUntil(
      async () => ((await http(`${sys.api}/transaction/confirm/${txId}`)).status === 200 ? true : undefined),
      "the batch transaction",
      90_000,
    );

    const proofs: AnchoredProof[] = [];
    for (const i of [0, 65_536, n - 1, Math.floor(Math.random() * n)]) {
      const leaf = packed.toString("hex", i * 32, i * 32 + 32);
      const [p] = await pollUntil(async () => {
        const res = await http(`${sys.api}/proof/${leaf}`);
        return res.status === 200 ? (res.json as AnchoredProof[]) : undefined;
      }, `proof of leaf ${i}`);
      expect(p).to.include({ leafIndex: i, treeSize: n, transactionHash: txId });
      proofs.push(p!);
    }
    const checked = await verifyProofCli(proofs, ["--ogmios", sys.ogmiosUrl]);
    expect(checked.status, checked.stderr).to.equal(0);
    expect(checked.lines.map((l) => l["checked"])).to.deep.equal(proofs.map(() => ["path", "transaction", "chain"]));
  });
});
