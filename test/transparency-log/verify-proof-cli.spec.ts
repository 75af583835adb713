/**
 * `npm run verify-proof` on a c2sp.org/tlog-proof@v1 proof, as a separate process against the real mesh: a document's
 * hash submitted to the calendar, its proof downloaded over HTTP, checked with the log key given (--log-key) or read
 * from the log (--log-url, trusted on first use), for the hash (--hash) or the document (--file). Another hash,
 * another log key, a tampered proof line, an altered checkpoint signature, a missing nonce and an unmet witness
 * quorum are refused with the reason (exit 1); bad arguments and an unreachable log exit 2.
 */
import { expect } from "chai";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { http, pollUntil, postJson } from "../../fixtures/mesh/helpers";
import { IssuanceWorld } from "../../fixtures/issuance/issuance-world";
import { runVerifyProof } from "../../fixtures/merkle/verify-proof-cli";
import type { SubmitAnswer } from "../../shared/merkle";
import { COSIGNATURE_TYPE } from "../../shared/tlog/cosignature";
import { fromBase64, toBase64 } from "../../shared/tlog/encoding";
import { generateKey } from "../../shared/tlog/note";

interface LogInfo {
  origin: string;
  verifierKey: string;
}

describe("verify-proof on a tlog-proof (real mesh, the CLI as a child process)", function () {
  this.timeout(180_000);
  let w: IssuanceWorld;
  let info: LogInfo;
  const dir = mkdtempSync(join(tmpdir(), "tlog-proof-cli-"));
  const document = join(dir, "contract.txt");
  const documentBytes = Buffer.from(`a contract, version ${randomBytes(8).toString("hex")}\n`);
  const hash = createHash("sha256").update(documentBytes).digest("hex");
  let proofFile: string;
  let proofText: string;
  const api = () => w.mesh.api;

  /** Writes `text` as a proof file of its own. */
  const proofOf = (text: string, name = `${randomBytes(4).toString("hex")}.tlog-proof`) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };

  before(async () => {
    w = await IssuanceWorld.create(["gateway", "indexer", "verifier", "tx-builder", "submitter", "calendar"], {
      BATCH_INTERVAL_MS: "600000",
      LOG_INTEGRATE_MS: "200",
    });
    info = (await http(`${api()}/log`)).json as LogInfo;
    writeFileSync(document, documentBytes);
    // the document's hash among others, so its proof has sibling hashes
    const others = Array.from({ length: 4 }, () => randomBytes(32).toString("hex"));
    const res = await postJson(`${api()}/batch/submit`, { hashes: [...others.slice(0, 2), hash, ...others.slice(2)] });
    expect(res.status, res.text).to.equal(202);
    const receipt = (res.json as SubmitAnswer).receipts[2]!.receiptId;
    await pollUntil(
      async () => {
        const r = (await http(`${api()}/batch/receipt/${receipt}`)).json as { log: { status: string } };
        return r.log.status === "checkpointed" ? true : undefined;
      },
      "the document's hash checkpointed",
      10_000,
    );
    const proof = await http(`${api()}/batch/receipt/${receipt}/proof`);
    expect(proof.status).to.equal(200);
    proofText = proof.text;
    proofFile = proofOf(proofText, `${receipt}.tlog-proof`);
  });
  after(() => w?.close());

  const report = async (args: string[], status: number) => {
    const r = await runVerifyProof(args);
    expect(r.status, r.stderr).to.equal(status);
    expect(r.lines).to.have.length(1);
    return r.lines[0]!;
  };
  const logKey = () => ["--log-key", info.verifierKey];

  it("holds for the document's hash (--hash) with the log's key: index, origin, checkpoint size", async () => {
    const r = await report([proofFile, "--hash", hash, ...logKey()], 0);
    const index = Number(/^index (\d+)$/m.exec(proofText)![1]);
    expect(r).to.deep.include({ kind: "tlog-proof", valid: true, index, origin: info.origin, logKey: info.verifierKey });
    expect(r["checked"]).to.deep.equal(["nonce", "signature", "inclusion"]);
    expect(r["cosigners"]).to.deep.equal([]);
    expect(r["size"]).to.be.a("number").and.above(index);
    expect(r).to.not.have.property("trust");
  });

  it("holds for the document itself (--file), hashed by the CLI", async () => {
    const r = await report([proofFile, "--file", document, ...logKey()], 0);
    expect(r["valid"]).to.equal(true);
  });

  it("holds with the key read from the log (--log-url, the API base or its /log URL), and says the key is trusted on first use", async () => {
    for (const url of [api(), `${api()}/log`]) {
      const r = await report([proofFile, "--hash", hash, "--log-url", url], 0);
      expect(r).to.deep.include({ valid: true, logKey: info.verifierKey, logKeyFrom: `${api()}/log`, trust: "first use" });
    }
  });

  it("refuses another hash: the inclusion proof does not lead to the checkpoint's root", async () => {
    const r = await report([proofFile, "--hash", randomBytes(32).toString("hex"), ...logKey()], 1);
    expect(r["valid"]).to.equal(false);
    expect(r["checked"]).to.deep.equal(["nonce", "signature"]);
    expect(r["reason"]).to.match(/^the inclusion proof does not verify/);
  });

  it("refuses another log key of the same origin", async () => {
    const other = generateKey(info.origin).verifierKey;
    const r = await report([proofFile, "--hash", hash, "--log-key", other], 1);
    expect(r["checked"]).to.deep.equal(["nonce"]);
    expect(r["reason"]).to.match(/^the checkpoint does not open/);
  });

  it("refuses a tampered proof line and an altered checkpoint signature", async () => {
    const lines = proofText.split("\n");
    const firstHash = lines.findIndex((l) => l.startsWith("index ")) + 1;
    expect(fromBase64(lines[firstHash]!), "the proof has a sibling hash").to.have.length(32);
    const tampered = lines.map((l, i) => (i === firstHash ? toBase64(randomBytes(32)) : l)).join("\n");
    const onPath = await report([proofOf(tampered), "--hash", hash, ...logKey()], 1);
    expect(onPath["reason"]).to.match(/^the inclusion proof does not verify/);

    const sigLine = lines.findIndex((l) => l.startsWith(`— ${info.origin} `));
    const sig = fromBase64(lines[sigLine]!.slice(`— ${info.origin} `.length))!;
    sig[sig.length - 1]! ^= 1;
    const altered = lines.map((l, i) => (i === sigLine ? `— ${info.origin} ${toBase64(sig)}` : l)).join("\n");
    const onSignature = await report([proofOf(altered), "--hash", hash, ...logKey()], 1);
    expect(onSignature["checked"]).to.deep.equal(["nonce"]);
    expect(onSignature["reason"]).to.match(/^the checkpoint does not open/);
  });

  it("refuses a proof without its 16-byte nonce", async () => {
    const noExtra = proofText
      .split("\n")
      .filter((l) => !l.startsWith("extra "))
      .join("\n");
    const r = await report([proofOf(noExtra), "--hash", hash, ...logKey()], 1);
    expect(r["reason"]).to.equal("the proof has no extra line (the 16-byte nonce)");
  });

  it("refuses a witness quorum the checkpoint does not meet, naming it", async () => {
    const none = await report([proofFile, "--hash", hash, ...logKey(), "--quorum", "1"], 1);
    expect(none["reason"]).to.equal("0 known witnesses cosigned, the policy needs 1");
    expect(none["checked"]).to.deep.equal(["nonce", "signature"]);
    const witness = generateKey("witness.example/w1", COSIGNATURE_TYPE).verifierKey;
    const unknown = await report([proofFile, "--hash", hash, ...logKey(), "--witness-key", witness, "--quorum", "1"], 1);
    expect(unknown["reason"]).to.equal("0 known witnesses cosigned, the policy needs 1");
  });

  it("exits 2 on bad arguments, an unreadable file and a log URL that cannot be read", async () => {
    const cases: string[][] = [
      [proofFile, ...logKey()], // no hash nor document
      [proofFile, "--hash", hash, "--file", document, ...logKey()],
      [proofFile, "--hash", "abcd", ...logKey()],
      [proofFile, "--hash", hash], // no key
      [proofFile, "--hash", hash, "--log-key", "not a key"],
      [proofFile, "--hash", hash, "--log-key", generateKey("witness.example/w1", COSIGNATURE_TYPE).verifierKey],
      [proofFile, "--hash", hash, ...logKey(), "--witness-key", info.verifierKey],
      [proofFile, "--hash", hash, ...logKey(), "--quorum", "-1"],
      [proofFile, "--hash", hash, ...logKey(), "--ogmios", "ws://127.0.0.1:1"],
      [proofFile, "--file", join(dir, "missing.txt"), ...logKey()],
      [join(dir, "missing.tlog-proof"), "--hash", hash, ...logKey()],
      [proofFile, "--hash", hash, "--log-url", "http://127.0.0.1:1/api/v1"],
      [proofFile, "--hash", hash, "--log-url", `${api()}/no-such-route`],
    ];
    for (const args of cases) {
      const r = await runVerifyProof(args);
      expect(r.status, args.join(" ")).to.equal(2);
      expect(r.lines, args.join(" ")).to.deep.equal([]);
      expect((JSON.parse(r.stderr) as { error: string }).error).to.equal("ERROR");
    }
  });
});
