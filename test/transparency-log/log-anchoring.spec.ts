/**
 * The log's checkpoints anchored on Cardano (the devnet): a calendar round anchors the log's latest checkpoint as a
 * certificate of the service wallet (its root; origin and size in the metadata), and a receipt then upgrades from
 * `checkpointed` to `anchored`, with the anchoring transaction, the anchored checkpoint and a proof against it.
 */
import { expect } from "chai";
import { createHash, randomBytes } from "node:crypto";
import { IssuanceWorld, ISSUANCE_SERVICES } from "../../fixtures/issuance/issuance-world";
import { http, pollUntil, postJson } from "../../fixtures/mesh/helpers";
import type { SubmitAnswer } from "../../shared/merkle";
import { parseCheckpoint } from "../../shared/tlog/checkpoint";
import { fromBase64 } from "../../shared/tlog/encoding";
import { ed25519Verifier, parseVerifierKey, splitNote } from "../../shared/tlog/note";
import { leafHash } from "../../shared/tlog/rfc9162";
import { verifyTlogProof } from "../../shared/tlog/tlog-proof";
import { TLOG_CHECKPOINT_SCHEME } from "../../shared/transparency-log/log-entries";
import { generateMnemonic, Wallet } from "../../shared/wallet";

interface AnchoredLog {
  status: string;
  index: number;
  nonce: string;
  anchored?: { size: number; transactionHash: string; checkpoint: string; proof: string; verifyUrl: string };
}

const sha256 = (...parts: Uint8Array[]) => parts.reduce((h, p) => h.update(p), createHash("sha256")).digest();

describe("transparency log: checkpoints anchored on Cardano", function () {
  this.timeout(240_000);
  const mnemonic = generateMnemonic();
  const serviceWallet = Wallet.fromMnemonic(mnemonic, { networkId: 0 });
  let w: IssuanceWorld;
  const api = () => w.mesh.api;

  before(async () => {
    w = await IssuanceWorld.create([...ISSUANCE_SERVICES, "calendar"], {
      SERVICE_MNEMONIC: mnemonic,
      BATCH_INTERVAL_MS: "1000",
      LOG_INTEGRATE_MS: "200",
    });
    await w.mintDefaultBootstrap();
    const bob = w.f.actors.bob;
    await w.f.chain.submit(
      {
        utxos: w.f.chain.utxosAt(bob.address),
        changeAddress: bob.address,
        outputs: [{ address: serviceWallet.address, lovelace: 500_000_000n }],
      },
      [bob],
    );
    await w.ensureCollateral(serviceWallet);
  });
  after(() => w?.close());

  it("a receipt upgrades to anchored: the transaction anchors a signed checkpoint holding it, its certificate names origin and size", async () => {
    const hash = randomBytes(32);
    const submitted = await postJson(`${api()}/batch/submit`, { hashes: [hash.toString("hex")] });
    expect(submitted.status, submitted.text).to.equal(202);
    const id = (submitted.json as SubmitAnswer).receipts[0]!.receiptId;
    let lastBlock = 0;
    const log = await pollUntil(
      async () => {
        if (Date.now() - lastBlock > 300) {
          w.f.chain.devnet.produceBlock();
          lastBlock = Date.now();
        }
        const l = ((await http(`${api()}/batch/receipt/${id}`)).json as { log: AnchoredLog }).log;
        return l.status === "anchored" ? l : undefined;
      },
      "the receipt anchored",
      120_000,
    );
    const info = (await http(`${api()}/log`)).json as { origin: string; verifierKey: string };
    const key = parseVerifierKey(info.verifierKey);
    if (!key.ok) throw new Error(key.error);
    const anchored = log.anchored!;
    expect(anchored.size).to.be.greaterThan(log.index);
    // the proof against the anchored checkpoint verifies, and that checkpoint is the one the transaction anchors
    const leaf = leafHash(sha256(fromBase64(log.nonce)!, hash));
    const verified = verifyTlogProof(anchored.proof, leaf, { origin: info.origin, logKeys: [ed25519Verifier(key.value)] });
    expect(verified.ok, verified.ok ? "" : verified.error).to.equal(true);
    const split = splitNote(anchored.checkpoint);
    const checkpoint = split.ok ? parseCheckpoint(split.value.text) : split;
    if (!checkpoint.ok) throw new Error(checkpoint.error);
    expect(checkpoint.value.size).to.equal(anchored.size);
    const root = Buffer.from(checkpoint.value.rootHash).toString("hex");
    expect(anchored.verifyUrl).to.equal(`/api/v1/verify/${root}`);
    const records = (await http(`${api()}/verify/${root}`)).json as {
      algorithm: string;
      metadata: string;
      transactionHash: string;
      issuer: string;
    }[];
    const record = records.find((r) => r.transactionHash === anchored.transactionHash);
    expect(record, JSON.stringify(records)).to.not.equal(undefined);
    expect(record!.algorithm).to.equal(TLOG_CHECKPOINT_SCHEME);
    expect(JSON.parse(record!.metadata)).to.deep.include({ tlog: { origin: info.origin, size: anchored.size } });
    expect(record!.issuer).to.equal(serviceWallet.paymentKeyHash);
  });
});
