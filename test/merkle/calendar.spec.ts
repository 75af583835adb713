/**
 * The aggregated Merkle calendar on the embedded mesh and the devnet (issue #17): callers hand in hashes through
 * POST /batch/submit and get receipts; the calendar service anchors the pending leaves from its wallet as one batch
 * certificate, at once when BATCH_MAX_LEAVES leaves wait, else every BATCH_INTERVAL_MS; the leaves then verify
 * through /verify and /proof with proofs that check offline. Pending leaves survive a restart; leaves whose
 * transaction a rollback drops for good are anchored again. Malformed bodies are 4xx JSON.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { errorBody, http, pollUntil, postJson, type HttpResult } from "../../fixtures/mesh/helpers";
import { IssuanceWorld, ISSUANCE_SERVICES } from "../../fixtures/issuance/issuance-world";
import { checkAnchorTransaction, checkInclusionProof, MERKLE_SCHEME, type CalendarReceipt, type SubmitAnswer } from "../../shared/merkle";
import type { AnchoredProof, BatchRecord } from "../../shared/verifier/batch-lookup";
import { generateMnemonic, Wallet } from "../../shared/wallet";

const hex = (b: Buffer) => b.toString("hex");
const hashes = (n: number) => Array.from({ length: n }, () => hex(randomBytes(32)));

describe("merkle calendar: POST /batch/submit anchors pending leaves from the service wallet", function () {
  this.timeout(240_000);
  const mnemonic = generateMnemonic();
  const serviceWallet = Wallet.fromMnemonic(mnemonic, { networkId: 0 });
  let w: IssuanceWorld;
  const api = () => w.mesh.api;
  const submit = (body: unknown): Promise<HttpResult> => postJson(`${api()}/batch/submit`, body);
  const receipt = (id: string) => http(`${api()}/batch/receipt/${id}`);

  /** Polls the receipts until all are anchored, producing a block now and then so the round's transaction lands. */
  const anchoredReceipts = (ids: readonly string[], what: string) => anchoredReceiptsWhere(ids, () => true, what);
  async function anchoredReceiptsWhere(
    ids: readonly string[],
    also: (r: CalendarReceipt) => boolean,
    what: string,
  ): Promise<CalendarReceipt[]> {
    let lastBlock = 0;
    return pollUntil(
      async () => {
        if (Date.now() - lastBlock > 300) {
          w.f.chain.devnet.produceBlock();
          lastBlock = Date.now();
        }
        const all = await Promise.all(ids.map(async (id) => (await receipt(id)).json as CalendarReceipt));
        return all.every((r) => r.status === "anchored" && also(r)) ? all : undefined;
      },
      what,
      120_000,
    );
  }

  /** Every hash verifies inside the batch of `root` and has a proof that checks offline. */
  async function expectProven(leaves: readonly string[], root: string, txId: string, size: number): Promise<void> {
    const indexes = new Set<number>();
    for (const leaf of leaves) {
      const verified = await http(`${api()}/verify/${leaf}`);
      expect(verified.status, verified.text).to.equal(200);
      const record = (verified.json as BatchRecord[]).find((r) => r.merkleRoot === root)!;
      expect(record).to.include({ merkleRoot: root, treeSize: size, transactionHash: txId, algorithm: MERKLE_SCHEME });
      const proofs = (await http(`${api()}/proof/${leaf}`)).json as AnchoredProof[];
      expect(proofs).to.have.length(1);
      expect(proofs[0]).to.include({ leaf, root, treeSize: size, transactionHash: txId });
      expect(checkInclusionProof(proofs[0]), leaf).to.deep.equal({ valid: true });
      expect(checkAnchorTransaction(proofs[0] as unknown as Record<string, unknown>), leaf).to.deep.include({ valid: true });
      indexes.add(proofs[0]!.leafIndex);
    }
    expect(indexes.size).to.equal(leaves.length);
  }

  before(async () => {
    w = await IssuanceWorld.create([...ISSUANCE_SERVICES, "calendar"], {
      SERVICE_MNEMONIC: mnemonic,
      // long enough that only BATCH_MAX_LEAVES can start a round while this mesh runs
      BATCH_INTERVAL_MS: "600000",
      BATCH_MAX_LEAVES: "8",
      BATCH_SUBMIT_MAX_HASHES: "10",
    });
    await w.mintDefaultBootstrap();
    // the service wallet's funds: a payment from bob, then its collateral output
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

  it("BATCH_MAX_LEAVES pending leaves of two callers are anchored at once, long before the interval, in one transaction", async () => {
    const first = hashes(5);
    const second = hashes(3);
    const a = await submit({ hashes: first });
    expect(a.status, a.text).to.equal(202);
    const answerA = a.json as SubmitAnswer;
    expect(answerA.pending).to.equal(5);
    expect(answerA.receipts.map((r) => r.hash)).to.deep.equal(first);
    expect(answerA).to.include({ status: "pending", receiptUrl: "/api/v1/batch/receipt/{receiptId}" });
    expect(answerA.expectedAnchorBy).to.be.greaterThan(answerA.submittedAt);
    expect(new Set(answerA.receipts.map((r) => r.receiptId)).size).to.equal(5);
    const pendingNow = (await receipt(answerA.receipts[0]!.receiptId)).json as CalendarReceipt;
    expect(pendingNow).to.include({
      receiptId: answerA.receipts[0]!.receiptId,
      hash: first[0],
      status: "pending",
      submittedAt: answerA.submittedAt,
      statusUrl: `/api/v1/batch/receipt/${answerA.receipts[0]!.receiptId}`,
    });
    expect(pendingNow.expectedAnchorBy).to.be.greaterThan(pendingNow.submittedAt);

    const b = await submit({ hashes: second });
    expect(b.status, b.text).to.equal(202);
    const ids = [...answerA.receipts, ...(b.json as SubmitAnswer).receipts].map((r) => r.receiptId);
    const anchored = await anchoredReceipts(ids, "8 leaves anchored");
    const txIds = new Set(anchored.map((r) => r.transactionHash));
    expect(txIds.size, "one transaction").to.equal(1);
    const root = anchored[0]!.merkleRoot!;
    expect(anchored.every((r) => r.merkleRoot === root && r.proofUrl === `/api/v1/proof/${r.hash}`)).to.equal(true);
    await expectProven([...first, ...second], root, anchored[0]!.transactionHash!, 8);

    // The root is an ordinary certificate of the service wallet, with the scheme as algorithm.
    const rootRecords = (await http(`${api()}/verify/${root}`)).json as BatchRecord[];
    expect(rootRecords[0]).to.include({ hash: root, algorithm: MERKLE_SCHEME, issuer: serviceWallet.paymentKeyHash });
  });

  it("keeps pending leaves across a restart; the interval anchors three submissions in one transaction", async () => {
    const fromA = hashes(2);
    const fromB = hashes(1);
    const a = (await submit({ hashes: fromA })).json as SubmitAnswer;
    const b = (await submit({ hashes: fromB })).json as SubmitAnswer;
    expect(b.pending).to.equal(3);

    // A restart before the interval: a new mesh, now with a short interval, finds the leaves in the store.
    await w.restartMesh({ BATCH_INTERVAL_MS: "1500" });
    const beforeRestart = [...a.receipts, ...b.receipts].map((r) => r.receiptId);
    const kept = (await receipt(beforeRestart[0]!)).json as CalendarReceipt;
    expect(kept).to.include({ receiptId: beforeRestart[0], hash: fromA[0] });
    expect(kept.status).to.be.oneOf(["pending", "submitted"]);
    const fromC = hashes(1);
    const c = await submit({ hashes: fromC });
    expect(c.status, c.text).to.equal(202);

    const anchored = await anchoredReceipts([...beforeRestart, (c.json as SubmitAnswer).receipts[0]!.receiptId], "4 leaves anchored");
    // the three submissions made before the restart went into one round (the one after it may have joined)
    const early = anchored.slice(0, 3);
    expect(new Set(early.map((r) => r.transactionHash)).size).to.equal(1);
    const size = anchored.every((r) => r.transactionHash === early[0]!.transactionHash) ? 4 : 3;
    await expectProven([...fromA, ...fromB], early[0]!.merkleRoot!, early[0]!.transactionHash!, size);
    const last = anchored[3]!;
    await expectProven(fromC, last.merkleRoot!, last.transactionHash!, size === 4 ? 4 : 1);
  });

  it("anchors the leaves again when a rollback drops their round's transaction for good", async () => {
    const leaves = hashes(2);
    const { receipts } = (await submit({ hashes: leaves })).json as SubmitAnswer;
    const ids = receipts.map((r) => r.receiptId);
    const statusOf = async () => Promise.all(ids.map(async (id) => (await receipt(id)).json as CalendarReceipt));
    // the round (BATCH_INTERVAL_MS 1.5 s since the restart) sends its transaction; one block takes it
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
    // the same leaves make the same tree: same root, now anchored by the new transaction only
    expect(again[0]!.merkleRoot).to.equal(sent[0]!.merkleRoot);
    await expectProven(leaves, again[0]!.merkleRoot!, again[0]!.transactionHash!, 2);
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

  it("counts each client's pending leaves apart: a calendar API key has its own quota, the admin key is no calendar key", async () => {
    const calendarKey = "calendar-key-0123456789";
    const adminKey = "admin-key-0123456789abcdef";
    await w.restartMesh({
      BATCH_API_KEYS: `another-calendar-key-99, ${calendarKey}`,
      ADMIN_API_KEY: adminKey,
      BATCH_MAX_PENDING_PER_CLIENT: "12",
      BATCH_MAX_LEAVES: "1000",
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
