/**
 * The log's checkpoints anchored on Cardano (the devnet): a calendar round anchors the log's latest checkpoint as a
 * certificate of the service wallet (its root; origin and size in the metadata), and a receipt then upgrades from
 * `checkpointed` to `anchored`, with the anchoring transaction, the anchored checkpoint and a proof against it. The
 * anchored form of the proof (`GET /proof/{hash}`) is checked by `npm run verify-proof`: offline (path, the log key's
 * signature of the checkpoint, the transaction) and with `--ogmios` against the devnet's Ogmios server; a tampered
 * proof, another log's key or another origin fail.
 */
import { expect } from "chai";
import { createHash, randomBytes } from "node:crypto";
import { IssuanceWorld, ISSUANCE_SERVICES } from "../../fixtures/issuance/issuance-world";
import { verifyProofCli } from "../../fixtures/merkle/verify-proof-cli";
import { http, postJson } from "../../fixtures/mesh/helpers";
import type { SubmitAnswer } from "../../shared/merkle";
import { parseCheckpoint } from "../../shared/tlog/checkpoint";
import { fromBase64 } from "../../shared/tlog/encoding";
import { ed25519Verifier, generateKey, parseVerifierKey, splitNote } from "../../shared/tlog/note";
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
    await w.fundServiceWallet(serviceWallet);
  });
  after(() => w?.close());

  it("a receipt upgrades to anchored: the transaction anchors a signed checkpoint holding it, its certificate names origin and size", async () => {
    const hash = randomBytes(32);
    const submitted = await postJson(`${api()}/batch/submit`, { hashes: [hash.toString("hex")] });
    expect(submitted.status, submitted.text).to.equal(202);
    const id = (submitted.json as SubmitAnswer).receipts[0]!.receiptId;
    const log = await w.pollProducingBlocks(async () => {
      const l = ((await http(`${api()}/batch/receipt/${id}`)).json as { log: AnchoredLog }).log;
      return l.status === "anchored" ? l : undefined;
    }, "the receipt anchored");
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

  it("the anchored proof (GET /proof/{hash}) checks with verify-proof offline and against the chain; tampered ones fail", async () => {
    const hash = randomBytes(32).toString("hex");
    const submitted = await postJson(`${api()}/batch/submit`, { hashes: [hash] });
    expect(submitted.status, submitted.text).to.equal(202);
    const proofs = await w.pollProducingBlocks(async () => {
      const res = await http(`${api()}/proof/${hash}`);
      return res.status === 200 ? (res.json as Record<string, unknown>[]) : undefined;
    }, "the hash's anchored proof");
    const info = (await http(`${api()}/log`)).json as { origin: string; verifierKey: string };
    const offline = await verifyProofCli(proofs, ["--log-key", info.verifierKey]);
    expect(offline.status, offline.stderr).to.equal(0);
    expect(offline.lines[0]).to.deep.include({
      leaf: hash,
      valid: true,
      checked: ["path", "checkpoint", "transaction"],
      issuer: serviceWallet.paymentKeyHash,
    });
    const online = await verifyProofCli(proofs, ["--log-key", info.verifierKey, "--ogmios", w.server.url]);
    expect(online.status, online.stderr).to.equal(0);
    expect(online.lines[0]).to.deep.include({ valid: true, checked: ["path", "checkpoint", "transaction", "chain"] });
    expect(online.lines[0]!.confirmations).to.be.at.least(1);

    const proof = proofs[0]!;
    const fails = async (tampered: Record<string, unknown>, args: string[], reason: RegExp) => {
      const res = await verifyProofCli([tampered], args);
      expect(res.status, JSON.stringify(res.lines)).to.equal(1);
      expect(res.lines[0]).to.deep.include({ valid: false });
      expect(res.lines[0]!.reason).to.match(reason);
    };
    await fails({ ...proof, nonce: randomBytes(16).toString("hex") }, [], /does not lead to the root/);
    await fails({ ...proof, leaf: randomBytes(32).toString("hex") }, [], /does not lead to the root/);
    await fails({ ...proof, origin: "example.com/another-log" }, [], /checkpoint names/);
    await fails(proof, ["--log-key", generateKey(info.origin).verifierKey], /not signed by the log key/);
    // another size in the metadata than the checkpoint's: a checkpoint of another tree
    await fails({ ...proof, treeSize: (proof["treeSize"] as number) + 1 }, [], /path|checkpoint names/);
  });
});
