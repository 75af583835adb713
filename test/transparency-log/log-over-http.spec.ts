/**
 * The transparency log through the real mesh and HTTP: hashes submitted to the calendar are in a signed checkpoint
 * within a second; a receipt's c2sp.org/tlog-proof@v1 proof verifies with the log's published verifier key and the
 * nonce it carries; the tiles served under the monitoring prefix give the checkpoint's root as a client computes it
 * (c2sp.org/tlog-tiles), their entry bundles hash to their level-0 tiles; consistency proofs between two sizes
 * verify; bad paths and sizes are clear 4xx answers.
 */
import { expect } from "chai";
import { createHash, randomBytes } from "node:crypto";
import { http, pollUntil, postJson } from "../../fixtures/mesh/helpers";
import { IssuanceWorld } from "../../fixtures/issuance/issuance-world";
import type { SubmitAnswer } from "../../shared/merkle";
import { parseCheckpoint } from "../../shared/tlog/checkpoint";
import { fromBase64 } from "../../shared/tlog/encoding";
import { ed25519Verifier, openNote, parseVerifierKey } from "../../shared/tlog/note";
import { leafHash, treeRoot, verifyConsistency, type HashReader } from "../../shared/tlog/rfc9162";
import { decodeEntryBundle, formatTilePath, tileHashReader, type Tile } from "../../shared/tlog/tiles";
import { verifyTlogProof } from "../../shared/tlog/tlog-proof";
import { verifyReceipt } from "../../shared/tlog/cose-receipt";

interface LogInfo {
  origin: string;
  verifierKey: string;
  monitoringPrefix: string;
  size: number;
  checkpoint: string | null;
}

interface ReceiptLog {
  status: "waiting" | "checkpointed";
  index?: number;
  nonce?: string;
  checkpointSize?: number;
  proof?: string;
  proofUrl?: string;
}

const sha256 = (...parts: Uint8Array[]) => parts.reduce((h, p) => h.update(p), createHash("sha256")).digest();

describe("transparency log over HTTP: submitted hashes, signed checkpoints, tiles, proofs", function () {
  this.timeout(120_000);
  let w: IssuanceWorld;
  let info: LogInfo;
  const api = () => w.mesh.api;

  before(async () => {
    // the anchoring rounds are not what this spec looks at: long interval, no funded wallet needed
    w = await IssuanceWorld.create(["gateway", "indexer", "verifier", "tx-builder", "submitter", "calendar"], {
      BATCH_INTERVAL_MS: "600000",
      LOG_INTEGRATE_MS: "200",
    });
    info = (await http(`${api()}/log`)).json as LogInfo;
  });
  after(() => w?.close());

  const logVerifier = () => {
    const key = parseVerifierKey(info.verifierKey);
    if (!key.ok) throw new Error(key.error);
    return ed25519Verifier(key.value);
  };

  async function submitAndWait(count: number): Promise<{ hashes: Buffer[]; receipts: string[]; logs: ReceiptLog[] }> {
    const hashes = Array.from({ length: count }, () => randomBytes(32));
    const res = await postJson(`${api()}/batch/submit`, { hashes: hashes.map((h) => h.toString("hex")) });
    expect(res.status, res.text).to.equal(202);
    const receipts = (res.json as SubmitAnswer).receipts.map((r) => r.receiptId);
    const logs = await pollUntil(
      async () => {
        const all = await Promise.all(
          receipts.map(async (id) => ((await http(`${api()}/batch/receipt/${id}`)).json as { log: ReceiptLog }).log),
        );
        return all.every((l) => l.status === "checkpointed") ? all : undefined;
      },
      `${count} hashes checkpointed`,
      10_000,
    );
    return { hashes, receipts, logs };
  }

  /** A HashReader over the tiles served at the monitoring prefix, as a client builds one. */
  async function readerOverHttp(size: number): Promise<HashReader> {
    const wanted = new Map<string, Tile>();
    const probe = tileHashReader(size, (t) => {
      wanted.set(formatTilePath(t), t);
      return new Uint8Array(t.width * 32);
    });
    treeRoot(size, probe);
    const got = new Map<string, Uint8Array>();
    for (const path of wanted.keys()) {
      const res = await fetch(`${info.monitoringPrefix}/${path}`);
      expect(res.status, path).to.equal(200);
      expect(res.headers.get("cache-control")).to.equal("public, max-age=31536000, immutable");
      got.set(path, new Uint8Array(await res.arrayBuffer()));
    }
    return tileHashReader(size, (t) => got.get(formatTilePath(t))!);
  }

  it("publishes its origin, verifier key and monitoring prefix", () => {
    // the default origin (the mesh's data folder, and with it the log key, is shared with other specs)
    expect(info.origin).to.equal("localhost/cert-anchor/devnet");
    expect(info.verifierKey.startsWith("localhost/cert-anchor/devnet+")).to.equal(true);
    expect(info.monitoringPrefix).to.equal(`${api()}/log`);
  });

  it("puts submitted hashes in a signed checkpoint within a second, with a tlog-proof that verifies offline", async () => {
    const { hashes, receipts, logs } = await submitAndWait(300);
    const indexes = new Set(logs.map((l) => l.index));
    expect(indexes.size).to.equal(300);
    for (const i of [0, 137, 299]) {
      const log = logs[i]!;
      const nonce = fromBase64(log.nonce!)!;
      expect(nonce.length).to.equal(16);
      const leaf = leafHash(sha256(nonce, hashes[i]!));
      const text = await http(`${api()}/batch/receipt/${receipts[i]}/proof`);
      expect(text.status).to.equal(200);
      expect(text.text).to.equal(log.proof);
      const verified = verifyTlogProof(text.text, leaf, { origin: info.origin, logKeys: [logVerifier()] });
      expect(verified.ok, verified.ok ? "" : verified.error).to.equal(true);
      // the RFC 9942 COSE receipt of the same inclusion, signed with the log key
      const cose = await fetch(`${api()}/batch/receipt/${receipts[i]}/receipt.cose`);
      expect(cose.status).to.equal(200);
      expect(cose.headers.get("content-type")).to.equal("application/cose");
      const key = parseVerifierKey(info.verifierKey);
      const checked = verifyReceipt(new Uint8Array(await cose.arrayBuffer()), leaf, key.ok ? key.value : (undefined as never));
      expect(checked.ok, checked.ok ? "" : checked.error).to.equal(true);
      expect(checked.ok && checked.value.inclusion.leafIndex).to.equal(log.index);
      // the extra line is the nonce; another hash's leaf does not verify
      expect(text.text.split("\n")[1]).to.equal(`extra ${log.nonce}`);
      expect(
        verifyTlogProof(text.text, leafHash(sha256(nonce, randomBytes(32))), { origin: info.origin, logKeys: [logVerifier()] }).ok,
      ).to.equal(false);
    }
  });

  it("serves the checkpoint and tiles: the root from tiles is the checkpoint's, entry bundles hash to level 0", async () => {
    await submitAndWait(260);
    const res = await fetch(`${info.monitoringPrefix}/checkpoint`);
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-type")).to.equal("text/plain; charset=utf-8");
    const note = openNote(await res.text(), [logVerifier()]);
    expect(note.ok).to.equal(true);
    const checkpoint = parseCheckpoint(note.ok ? note.value.text : "");
    if (!checkpoint.ok) throw new Error(checkpoint.error);
    const size = checkpoint.value.size;
    expect(size).to.be.at.least(560);
    const read = await readerOverHttp(size);
    expect(Buffer.from(treeRoot(size, read)).equals(Buffer.from(checkpoint.value.rootHash))).to.equal(true);
    const bundle = await fetch(`${info.monitoringPrefix}/tile/entries/000`);
    expect(bundle.status).to.equal(200);
    const entries = decodeEntryBundle(new Uint8Array(await bundle.arrayBuffer()));
    if (!entries.ok) throw new Error(entries.error);
    expect(entries.value).to.have.length(256);
    const level0 = new Uint8Array(await (await fetch(`${info.monitoringPrefix}/tile/0/000`)).arrayBuffer());
    entries.value.forEach((e, i) =>
      expect(Buffer.from(leafHash(e)).equals(Buffer.from(level0.subarray(i * 32, i * 32 + 32)))).to.equal(true),
    );
  });

  it("answers consistency proofs between two sizes it has reached", async () => {
    const before = ((await http(`${api()}/log`)).json as LogInfo).size;
    const rootBefore = treeRoot(before, await readerOverHttp(before));
    await submitAndWait(50);
    const after = ((await http(`${api()}/log`)).json as LogInfo).size;
    const rootAfter = treeRoot(after, await readerOverHttp(after));
    const res = await http(`${api()}/log/consistency?from=${before}&to=${after}`);
    expect(res.status, res.text).to.equal(200);
    const proof = (res.json as { proof: string[] }).proof.map((p) => fromBase64(p)!);
    expect(verifyConsistency(before, after, rootBefore, rootAfter, proof)).to.deep.equal({ valid: true });
  });

  it("refuses bad tile paths and sizes with clear 4xx answers", async () => {
    const bad = await http(`${api()}/log/tile/0/0001`);
    expect(bad.status).to.equal(400);
    expect((bad.json as { error: string }).error).to.equal("BAD_REQUEST");
    const beyond = await http(`${api()}/log/tile/3/000`);
    expect(beyond.status).to.equal(404);
    const consistency = await http(`${api()}/log/consistency?from=0&to=1`);
    expect(consistency.status).to.equal(400);
    const tooBig = await http(`${api()}/log/consistency?from=1&to=999999999`);
    expect(tooBig.status).to.equal(400);
    const waiting = await http(`${api()}/batch/receipt/${"0".repeat(32)}/proof`);
    expect(waiting.status).to.equal(404);
    const noCose = await http(`${api()}/batch/receipt/${"0".repeat(32)}/receipt.cose`);
    expect(noCose.status).to.equal(404);
    expect((noCose.json as { error: string }).error).to.equal("NOT_FOUND");
  });
});
