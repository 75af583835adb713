/**
 * The aggregated calendar on the embedded mesh and the devnet: callers hand in hashes through POST /batch/submit and
 * get receipts; the transparency log takes them within a second, and every BATCH_INTERVAL_MS the calendar anchors the
 * log's latest checkpoint from its wallet as one certificate; the hashes then verify through /verify and /proof, with
 * proofs that check offline (the path of SHA-256(nonce ‖ hash) to the checkpoint's root, the checkpoint's signature,
 * the anchoring transaction). Submissions survive a restart; a checkpoint whose transaction a rollback drops for good
 * is anchored again. Malformed bodies are 4xx JSON.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { errorBody, http, pollUntil, postJson, type HttpResult } from "../../fixtures/mesh/helpers";
import { IssuanceWorld, ISSUANCE_SERVICES } from "../../fixtures/issuance/issuance-world";
import { checkAnchorTransaction, checkInclusionProof, type CalendarReceipt, type SubmitAnswer } from "../../shared/merkle";
import { ed25519Verifier, openNote, parseVerifierKey } from "../../shared/tlog/note";
import { TLOG_CHECKPOINT_SCHEME } from "../../shared/transparency-log/log-entries";
import type { AnchoredLogProof, LogRecord } from "../../shared/verifier/calendar-log-lookup";
import { generateMnemonic, Wallet } from "../../shared/wallet";

const hex = (b: Buffer) => b.toString("hex");
const hashes = (n: number) => Array.from({ length: n }, () => hex(randomBytes(32)));

describe("merkle calendar: POST /batch/submit, the log's checkpoints anchored from the service wallet", function () {
  this.timeout(240_000);
  const mnemonic = generateMnemonic();
  const serviceWallet = Wallet.fromMnemonic(mnemonic, { networkId: 0 });
  let w: IssuanceWorld;
  const api = () => w.mesh.api;
  const submit = (body: unknown): Promise<HttpResult> => postJson(`${api()}/batch/submit`, body);
  const receipt = (id: string) => http(`${api()}/batch/receipt/${id}`);

  /** Polls the receipts until all are anchored, producing blocks meanwhile so the round's transaction lands. */
  const anchoredReceipts = (ids: readonly string[], what: string) => anchoredReceiptsWhere(ids, () => true, what);
  async function anchoredReceiptsWhere(
    ids: readonly string[],
    also: (r: CalendarReceipt) => boolean,
    what: string,
  ): Promise<CalendarReceipt[]> {
    return w.pollProducingBlocks(async () => {
      const all = await Promise.all(ids.map(async (id) => (await receipt(id)).json as CalendarReceipt));
      return all.every((r) => r.status === "anchored" && also(r)) ? all : undefined;
    }, what);
  }

  /**
   * Every anchored receipt's hash verifies inside the checkpoint its receipt names, at its own index, with a proof
   * that checks offline: path, checkpoint signed by the log's key, anchoring transaction.
   */
  async function expectProven(anchored: readonly CalendarReceipt[]): Promise<void> {
    const { verifierKey, origin } = (await http(`${api()}/log`)).json as { verifierKey: string; origin: string };
    const key = parseVerifierKey(verifierKey);
    if (!key.ok) throw new Error(key.error);
    const indexes = new Set<number>();
    for (const r of anchored) {
      const verified = await http(`${api()}/verify/${r.hash}`);
      expect(verified.status, verified.text).to.equal(200);
      const record = (verified.json as LogRecord[]).find((x) => x.transactionHash === r.transactionHash)!;
      expect(record, r.hash).to.include({
        merkleRoot: r.merkleRoot,
        origin,
        algorithm: TLOG_CHECKPOINT_SCHEME,
        issuer: serviceWallet.paymentKeyHash,
      });
      const proofs = (await http(`${api()}/proof/${r.hash}`)).json as AnchoredLogProof[];
      expect(proofs).to.have.length(1);
      const proof = proofs[0]!;
      expect(proof).to.include({
        scheme: TLOG_CHECKPOINT_SCHEME,
        leaf: r.hash,
        root: r.merkleRoot,
        transactionHash: r.transactionHash,
        origin,
      });
      expect(proof.leafIndex).to.be.below(proof.treeSize);
      expect(checkInclusionProof(proof), r.hash).to.deep.equal({ valid: true });
      expect(openNote(proof.checkpoint, [ed25519Verifier(key.value)]).ok, "signed by the log's key").to.equal(true);
      expect(checkAnchorTransaction(proof as unknown as Record<string, unknown>), r.hash).to.deep.include({
        valid: true,
        issuer: serviceWallet.paymentKeyHash,
      });
      // a proof of another hash at the same place does not check
      expect(checkInclusionProof({ ...proof, leaf: hex(randomBytes(32)) }).valid).to.equal(false);
      expect(checkInclusionProof({ ...proof, nonce: hex(randomBytes(16)) }).valid).to.equal(false);
      indexes.add(proof.leafIndex);
    }
    expect(indexes.size).to.equal(anchored.length);
  }

  before(async () => {
    w = await IssuanceWorld.create([...ISSUANCE_SERVICES, "calendar"], {
      SERVICE_MNEMONIC: mnemonic,
      BATCH_INTERVAL_MS: "1500",
      BATCH_SUBMIT_MAX_HASHES: "10",
    });
    await w.mintDefaultBootstrap();
    await w.fundServiceWallet(serviceWallet);
  });
  after(() => w?.close());

  it("anchors the log's checkpoint holding two callers' hashes; each verifies and has a proof that checks offline", async () => {
    const first = hashes(5);
    const second = hashes(3);
    const a = await submit({ hashes: first });
    expect(a.status, a.text).to.equal(202);
    const answerA = a.json as SubmitAnswer;
    expect(answerA.pending).to.be.at.least(5);
    expect(answerA.receipts.map((r) => r.hash)).to.deep.equal(first);
    expect(answerA).to.include({ status: "pending", receiptUrl: "/api/v1/batch/receipt/{receiptId}" });
    expect(answerA.expectedAnchorBy).to.be.at.least(answerA.submittedAt);
    expect(new Set(answerA.receipts.map((r) => r.receiptId)).size).to.equal(5);
    const pendingNow = (await receipt(answerA.receipts[0]!.receiptId)).json as CalendarReceipt;
    expect(pendingNow).to.include({
      receiptId: answerA.receipts[0]!.receiptId,
      hash: first[0],
      submittedAt: answerA.submittedAt,
      statusUrl: `/api/v1/batch/receipt/${answerA.receipts[0]!.receiptId}`,
    });

    const b = await submit({ hashes: second });
    expect(b.status, b.text).to.equal(202);
    const ids = [...answerA.receipts, ...(b.json as SubmitAnswer).receipts].map((r) => r.receiptId);
    const anchored = await anchoredReceipts(ids, "8 hashes anchored");
    expect(anchored.map((r) => r.hash)).to.deep.equal([...first, ...second]);
    expect(anchored.every((r) => r.proofUrl === `/api/v1/proof/${r.hash}`)).to.equal(true);
    await expectProven(anchored);

    // The root is an ordinary certificate of the service wallet, with the checkpoint scheme and the log's origin and
    // the checkpoint's size in its metadata.
    const rootRecords = (await http(`${api()}/verify/${anchored[0]!.merkleRoot}`)).json as LogRecord[];
    expect(rootRecords[0]).to.include({
      hash: anchored[0]!.merkleRoot,
      algorithm: TLOG_CHECKPOINT_SCHEME,
      issuer: serviceWallet.paymentKeyHash,
    });
    const { origin } = (await http(`${api()}/log`)).json as { origin: string };
    expect(JSON.parse(rootRecords[0]!.metadata)).to.deep.include({ calendar: true }).and.have.nested.property("tlog.origin", origin);
  });

  it("keeps submissions across a restart; they are anchored after it", async () => {
    const fromA = hashes(2);
    const a = (await submit({ hashes: fromA })).json as SubmitAnswer;
    await w.restartMesh({ BATCH_INTERVAL_MS: "1500" });
    const kept = (await receipt(a.receipts[0]!.receiptId)).json as CalendarReceipt;
    expect(kept).to.include({ receiptId: a.receipts[0]!.receiptId, hash: fromA[0] });
    const c = (await submit({ hashes: hashes(1) })).json as SubmitAnswer;
    const anchored = await anchoredReceipts(
      [...a.receipts, ...c.receipts].map((r) => r.receiptId),
      "3 hashes anchored",
    );
    await expectProven(anchored);
  });

  it("anchors the log's checkpoint again when a rollback drops its transaction for good", async () => {
    const leaves = hashes(2);
    const { receipts } = (await submit({ hashes: leaves })).json as SubmitAnswer;
    const ids = receipts.map((r) => r.receiptId);
    const statusOf = async () => Promise.all(ids.map(async (id) => (await receipt(id)).json as CalendarReceipt));
    // the round sends its transaction; one block takes it
    const sent = await pollUntil(
      async () => {
        const all = await statusOf();
        return all.every((r) => r.status === "submitted") ? all : undefined;
      },
      "round submitted",
      60_000,
    );
    const lostTx = sent[0]!.transactionHash!;
    w.f.chain.devnet.produceBlock();
    await pollUntil(async () => ((await statusOf()).every((r) => r.status === "anchored") ? true : undefined), "first anchoring on chain");

    // past the transaction's validity, the rollback cannot put it back in the mempool: it is lost
    w.f.chain.advanceSlots(700);
    w.f.chain.devnet.rollback(1);
    const again = await anchoredReceiptsWhere(ids, (r) => r.transactionHash !== lostTx, "anchored again in another transaction");
    expect(new Set(again.map((r) => r.transactionHash)).size).to.equal(1);
    await expectProven(again);
  });

  it("answers malformed submissions and unknown receipts with 4xx JSON naming the problem", async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /hashes is required/],
      [{ hashes: "ab" }, /must be an array/],
      [{ hashes: [] }, /empty/],
      [{ hashes: ["zz".repeat(32)] }, /hashes\[0\] must be a 32-byte hash/],
      [{ hashes: [hex(randomBytes(31))] }, /hashes\[0\] must be a 32-byte hash/],
      [{ hashes: [hex(randomBytes(32)), 7] }, /hashes\[1\]/],
    ];
    for (const [body, message] of cases) {
      const res = await submit(body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(errorBody(res).message).to.match(message);
    }
    const tooMany = await submit({ hashes: hashes(11) });
    expect(tooMany.status).to.equal(400);
    expect(errorBody(tooMany)).to.include({ maxHashes: 10 });
    expect(errorBody(tooMany).message).to.match(/at most 10 hashes/);
    const notObject = await submit([hex(randomBytes(32))]);
    expect(notObject.status).to.equal(400);
    expect(errorBody(notObject).error).to.be.a("string");

    const unknown = await receipt(hex(randomBytes(16)));
    expect(unknown.status).to.equal(404);
    expect(errorBody(unknown).error).to.equal("NOT_FOUND");
  });

  it("counts each client's pending hashes apart: a calendar API key has its own quota, the admin key is no calendar key", async () => {
    const calendarKey = "calendar-key-0123456789";
    const adminKey = "admin-key-0123456789abcdef";
    await w.restartMesh({
      BATCH_API_KEYS: `another-calendar-key-99, ${calendarKey}`,
      ADMIN_API_KEY: adminKey,
      BATCH_MAX_PENDING_PER_CLIENT: "12",
      // no round frees the quota while the test submits
      BATCH_INTERVAL_MS: "600000",
    });
    const submitAs = (n: number, key?: string) =>
      postJson(`${api()}/batch/submit`, { hashes: hashes(n) }, key === undefined ? {} : { "X-Api-Key": key });
    expect((await submitAs(10)).status).to.equal(202);
    const full = await submitAs(5);
    expect(full.status, full.text).to.equal(429);
    expect(errorBody(full)).to.include({ error: "CALENDAR_FULL", maxPendingPerClient: 12 });
    expect(full.headers.get("retry-after")).to.match(/^\d+$/);
    expect((await submitAs(5, adminKey)).status, "the admin key is counted as the caller's address").to.equal(429);
    expect((await submitAs(5, "not-a-calendar-key-at-all")).status).to.equal(429);
    expect((await submitAs(10, calendarKey)).status, "a calendar key's own quota").to.equal(202);
    expect((await submitAs(5, calendarKey)).status).to.equal(429);
  });

  it("refuses submissions and receipts with 403 CALENDAR_DISABLED when BATCH_CALENDAR_ENABLED=false", async () => {
    const kept = ((await submit({ hashes: hashes(1) })).json as SubmitAnswer).receipts[0]!.receiptId;
    await w.restartMesh({ BATCH_CALENDAR_ENABLED: "false" });
    const refused = await submit({ hashes: hashes(1) });
    expect(refused.status).to.equal(403);
    expect(errorBody(refused)).to.include({ error: "CALENDAR_DISABLED" });
    expect(errorBody(refused).message).to.match(/BATCH_CALENDAR_ENABLED=false/);
    const receiptRefused = await receipt(kept);
    expect(receiptRefused.status).to.equal(403);
    expect(errorBody(receiptRefused).error).to.equal("CALENDAR_DISABLED");
  });
});
