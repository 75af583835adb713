/**
 * The log and its witnesses (c2sp.org/tlog-witness) over real HTTP: the calendar's log sends each new checkpoint
 * to the witness configured in LOG_WITNESSES, serves the checkpoint with the witness's cosignature, and receipts'
 * proofs carry it (verified with a quorum of one); the witness follows the log's growth by consistency proofs,
 * is asked again after the log restarts (its 409 tells the size it knows), and a witness that is down delays
 * nothing.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { http, pollUntil, postJson } from "../../fixtures/mesh/helpers";
import { IssuanceWorld } from "../../fixtures/issuance/issuance-world";
import type { SubmitAnswer } from "../../shared/merkle";
import { cosignatureVerifier } from "../../shared/tlog/cosignature";
import { formatSignerKey, openNote } from "../../shared/tlog/note";
import { leafHash } from "../../shared/tlog/rfc9162";
import { verifyTlogProof } from "../../shared/tlog/tlog-proof";
import { fromBase64 } from "../../shared/tlog/encoding";
import { createHash } from "node:crypto";
import { logKeys, logVerifier, ORIGIN, witnessKeys } from "../tlog/fixture-log";
import { startTestWitness, type TestWitness } from "../witness/fixture-witness";

interface ReceiptLog {
  status: string;
  index?: number;
  nonce?: string;
  checkpointSize?: number;
  proof?: string;
}

const witnessVerifier = cosignatureVerifier(witnessKeys.verifier);
const sha256 = (...parts: Uint8Array[]) => parts.reduce((h, p) => h.update(p), createHash("sha256")).digest();

describe("transparency log: witnesses cosign its checkpoints", function () {
  this.timeout(120_000);
  let w: IssuanceWorld;
  let witness: TestWitness;
  const api = () => w.mesh.api;

  before(async () => {
    witness = await startTestWitness({ nowSeconds: () => BigInt(Math.floor(Date.now() / 1000)) });
    w = await IssuanceWorld.create(["gateway", "indexer", "verifier", "tx-builder", "submitter", "calendar"], {
      BATCH_INTERVAL_MS: "600000",
      LOG_INTEGRATE_MS: "200",
      LOG_ORIGIN: ORIGIN,
      LOG_SIGNER_KEY: formatSignerKey(ORIGIN, 1, logKeys.signer.seed),
      LOG_WITNESSES: `${witness.url}/=${witnessKeys.vkey}`,
    });
  });
  after(async () => {
    await w?.close();
    await witness?.stop().catch(() => undefined); // the last test stopped it already
  });

  /** Submits `count` hashes and waits until every receipt is in a checkpoint cosigned by the witness. */
  async function submitAndWaitCosigned(count: number): Promise<{ hashes: Buffer[]; logs: ReceiptLog[] }> {
    const hashes = Array.from({ length: count }, () => randomBytes(32));
    const res = await postJson(`${api()}/batch/submit`, { hashes: hashes.map((h) => h.toString("hex")) });
    expect(res.status, res.text).to.equal(202);
    const ids = (res.json as SubmitAnswer).receipts.map((r) => r.receiptId);
    const logs = await pollUntil(
      async () => {
        const all = await Promise.all(
          ids.map(async (id) => ((await http(`${api()}/batch/receipt/${id}`)).json as { log: ReceiptLog }).log),
        );
        const cosigned = all.every((l) => l.status === "checkpointed" && l.proof!.includes("— witness.example/w1 "));
        return cosigned ? all : undefined;
      },
      `${count} hashes in a cosigned checkpoint`,
      15_000,
    );
    return { hashes, logs };
  }

  function expectCosignedProof(hash: Buffer, log: ReceiptLog): void {
    const leaf = leafHash(sha256(fromBase64(log.nonce!)!, hash));
    const verified = verifyTlogProof(log.proof!, leaf, {
      origin: ORIGIN,
      logKeys: [logVerifier],
      witnessKeys: [witnessVerifier],
      quorum: 1,
    });
    expect(verified.ok, verified.ok ? "" : verified.error).to.equal(true);
  }

  it("serves the checkpoint with the witness's cosignature, and receipts' proofs verify with a quorum of one", async () => {
    const { hashes, logs } = await submitAndWaitCosigned(40);
    logs.forEach((l, i) => expectCosignedProof(hashes[i]!, l));
    const served = await (await fetch(`${api()}/log/checkpoint`)).text();
    const opened = openNote(served, [logVerifier, witnessVerifier]);
    expect(opened.ok && opened.value.verified.map((s) => s.name).sort()).to.deep.equal([ORIGIN, "witness.example/w1"].sort());
    const record = await witness.state.latest(ORIGIN);
    expect(record?.size).to.be.at.least(logs[0]!.checkpointSize!);
  });

  it("the witness follows the log's growth through consistency proofs", async () => {
    const before = (await witness.state.latest(ORIGIN))!.size;
    const { hashes, logs } = await submitAndWaitCosigned(30);
    expectCosignedProof(hashes[29]!, logs[29]!);
    expect((await witness.state.latest(ORIGIN))!.size).to.be.greaterThan(before);
  });

  it("after the log restarts, the witness's 409 tells the size it knows and it cosigns again", async () => {
    await w.restartMesh({});
    const { hashes, logs } = await submitAndWaitCosigned(5);
    expectCosignedProof(hashes[0]!, logs[0]!);
  });

  it("a witness that is down delays nothing: checkpoints go on, served without its cosignature", async () => {
    await witness.stop();
    const sizeBefore = ((await http(`${api()}/log`)).json as { size: number }).size;
    const res = await postJson(`${api()}/batch/submit`, { hashes: [randomBytes(32).toString("hex")] });
    expect(res.status).to.equal(202);
    const grown = await pollUntil(
      async () => {
        const info = (await http(`${api()}/log`)).json as { size: number; checkpoint: string };
        return info.size > sizeBefore ? info : undefined;
      },
      "the log grows with its witness down",
      5_000,
    );
    expect(grown.checkpoint.includes("— witness.example/w1 ")).to.equal(false);
  });
});
