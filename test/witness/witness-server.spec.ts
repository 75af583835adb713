/**
 * The witness over real HTTP (shared/witness/witness-server.ts with an embedded SQLite store) against
 * c2sp.org/tlog-witness §add-checkpoint: what it cosigns, each refusal's status and body, the 413 bound, the race
 * of two requests from one old size, and the record surviving a restart.
 */
import { expect } from "chai";
import { request as httpRequest } from "node:http";
import { verifyCosignatureLine } from "../../shared/tlog/cosignature";
import { fromBase64, toBase64 } from "../../shared/tlog/encoding";
import { treeRoot } from "../../shared/tlog/rfc9162";
import { formatAddCheckpoint } from "../../shared/tlog/witness-protocol";
import { MAX_ADD_CHECKPOINT_BYTES } from "../../shared/witness/witness-server";
import type { WitnessState } from "../../shared/witness/witness-state";
import { ORIGIN, keys, memoryTree, signedCheckpoint, witnessKeys } from "../tlog/fixture-log";
import { NOW, addCheckpointBody, checkpointText, startTestWitness, type TestWitness } from "./fixture-witness";

const tree = memoryTree(600);
/** shares the first 300 entries with `tree`, then forks */
const fork = memoryTree(600, (i) => new TextEncoder().encode(i < 300 ? `entry ${i}` : `forked ${i}`));
/** shares only the first 100 entries with `tree` */
const earlyFork = memoryTree(600, (i) => new TextEncoder().encode(i < 100 ? `entry ${i}` : `forked ${i}`));
const TEXT = "text/plain; charset=utf-8";

describe("witness server: add-checkpoint over HTTP", () => {
  let witness: TestWitness;
  beforeEach(async () => {
    witness = await startTestWitness();
  });
  afterEach(async () => {
    await witness.stop();
  });

  const cosigned = async (body: string) => {
    const res = await witness.post(body);
    expect(res, res.body).to.include({ status: 200, contentType: TEXT });
    return res.body;
  };
  const latestSize = async () => (await witness.state.latest(ORIGIN))?.size ?? 0;

  it("cosigns a first checkpoint (old 0) with a cosignature that verifies, and records it", async () => {
    const line = await cosigned(addCheckpointBody(0, 300, tree));
    const checked = verifyCosignatureLine(checkpointText(signedCheckpoint(tree, 300)), line, witnessKeys.verifier);
    expect(checked.ok && checked.value.timestamp).to.equal(NOW);
    const latest = await witness.state.latest(ORIGIN);
    expect(latest?.size).to.equal(300);
    expect(toBase64(latest!.rootHash)).to.equal(toBase64(treeRoot(300, tree.read)));
  });

  it("cosigns growth with a correct consistency proof", async () => {
    await cosigned(addCheckpointBody(0, 300, tree));
    const line = await cosigned(addCheckpointBody(300, 600, tree));
    expect(verifyCosignatureLine(checkpointText(signedCheckpoint(tree, 600)), line, witnessKeys.verifier).ok).to.equal(true);
    expect(await latestSize()).to.equal(600);
  });

  it("refuses a fork (same size, another root) with 422 and does not cosign it", async () => {
    await cosigned(addCheckpointBody(0, 400, tree));
    const res = await witness.post(addCheckpointBody(400, 400, fork));
    expect(res).to.include({ status: 422, contentType: TEXT });
    expect(res.body).to.match(/consistency proof does not verify.*\n$/);
    expect(toBase64((await witness.state.latest(ORIGIN))!.rootHash)).to.equal(toBase64(treeRoot(400, tree.read)));
  });

  it("refuses a rollback (a smaller checkpoint from the current old size) with 400", async () => {
    await cosigned(addCheckpointBody(0, 500, tree));
    const res = await witness.post(formatAddCheckpoint({ oldSize: 500, consistencyProof: [], note: signedCheckpoint(tree, 300) }));
    expect(res).to.include({ status: 400, contentType: TEXT });
    expect(res.body).to.equal("old size 500 is above the checkpoint size 300\n");
    expect(await latestSize()).to.equal(500);
  });

  it("answers a stale old size with 409, text/x.tlog.size and the current size", async () => {
    await cosigned(addCheckpointBody(0, 300, tree));
    expect(await witness.post(addCheckpointBody(0, 600, tree))).to.deep.equal({
      status: 409,
      contentType: "text/x.tlog.size",
      body: "300\n",
    });
    expect(await witness.post(addCheckpointBody(200, 600, tree))).to.include({ status: 409, body: "300\n" });
  });

  it("refuses a bad consistency proof with 422", async () => {
    await cosigned(addCheckpointBody(0, 300, tree));
    const body = addCheckpointBody(300, 600, tree);
    const firstHash = body.split("\n")[1]!;
    const bytes = fromBase64(firstHash)!;
    bytes[0]! ^= 1;
    expect(await witness.post(body.replace(firstHash, toBase64(bytes)))).to.include({ status: 422 });
    expect(await witness.post(addCheckpointBody(300, 600, earlyFork))).to.include({ status: 422 });
    expect(await latestSize()).to.equal(300);
  });

  it("refuses with 403 a checkpoint another key signed, and with 404 an unknown origin", async () => {
    const impostor = keys(ORIGIN);
    const forged = formatAddCheckpoint({ oldSize: 0, consistencyProof: [], note: signedCheckpoint(tree, 300, impostor.signer) });
    const res = await witness.post(forged);
    expect(res).to.include({ status: 403, contentType: TEXT });
    expect(res.body).to.equal("no signature of a known key\n");
    const unknown = addCheckpointBody(0, 300, tree).replace(`\n${ORIGIN}\n`, "\nother.example/log\n");
    expect(await witness.post(unknown)).to.deep.equal({ status: 404, contentType: TEXT, body: "unknown log origin other.example/log\n" });
    expect(await latestSize()).to.equal(0);
  });

  it("refuses a malformed body with 400 naming the problem", async () => {
    const res = await witness.post("old 01\n\n");
    expect(res).to.include({ status: 400, contentType: TEXT });
    expect(res.body).to.match(/^the first line is not old <size>/);
  });

  it("answers 405 to another method on add-checkpoint and 404 elsewhere", async () => {
    const get = await fetch(`${witness.url}/add-checkpoint`);
    expect(get.status).to.equal(405);
    expect(get.headers.get("allow")).to.equal("POST");
    expect((await fetch(`${witness.url}/checkpoint`, { method: "POST", body: "x" })).status).to.equal(404);
  });

  it("refuses an oversized body with 413, announced or streamed, without reading it", async () => {
    const announced = await rawPost(witness.url, { "Content-Length": String(MAX_ADD_CHECKPOINT_BYTES + 1) }, []);
    expect(announced).to.include({ status: 413 });
    const streamed = await rawPost(
      witness.url,
      { "Transfer-Encoding": "chunked" },
      Array(8).fill("x".repeat(MAX_ADD_CHECKPOINT_BYTES / 4)),
    );
    expect(streamed).to.include({ status: 413 });
    expect(streamed.body).to.equal(`the body exceeds ${MAX_ADD_CHECKPOINT_BYTES} bytes\n`);
  });

  it("cosigns exactly one of two requests racing from the same old size with different roots; the other gets 409", async () => {
    await cosigned(addCheckpointBody(0, 300, tree));
    await witness.stop();
    // Both requests read the record before either writes: only the compare-and-set can tell them apart.
    witness = await startTestWitness({ dataDir: witness.dataDir, wrapState: bothReadFirst });
    const [a, b] = await Promise.all([witness.post(addCheckpointBody(300, 500, tree)), witness.post(addCheckpointBody(300, 500, fork))]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).to.deep.equal([200, 409]);
    expect([a, b].find((r) => r.status === 409)).to.include({ contentType: "text/x.tlog.size", body: "500\n" });
    const winner = a.status === 200 ? tree : fork;
    expect(toBase64((await witness.state.latest(ORIGIN))!.rootHash)).to.equal(toBase64(treeRoot(500, winner.read)));
  });

  it("keeps its record across a restart on the same data directory", async () => {
    await cosigned(addCheckpointBody(0, 300, tree));
    await witness.stop();
    witness = await startTestWitness({ dataDir: witness.dataDir });
    expect(await witness.post(addCheckpointBody(0, 600, tree))).to.include({ status: 409, body: "300\n" });
    await cosigned(addCheckpointBody(300, 600, tree));
  });

  it("serves under a submission prefix", async () => {
    await witness.stop();
    witness = await startTestWitness({ prefix: "/w/" });
    await cosigned(addCheckpointBody(0, 300, tree));
    expect((await fetch(`${witness.url}/add-checkpoint`, { method: "POST", body: "x" })).status).to.equal(404);
  });
});

/** A state whose first two `latest` reads wait for each other, so two requests both decide on the old record. */
function bothReadFirst(state: WitnessState): WitnessState {
  let waiting: (() => void) | undefined;
  let reads = 0;
  return {
    async latest(origin) {
      const value = await state.latest(origin);
      if (++reads > 2) return value;
      if (waiting) waiting();
      else await new Promise<void>((resolve) => (waiting = resolve));
      return value;
    },
    advance: (origin, expected, next) => state.advance(origin, expected, next),
  };
}

/** A POST with the given headers and chunks written as they are; the answer, even if the server cuts the upload. */
function rawPost(base: string, headers: Record<string, string>, chunks: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(`${base}/add-checkpoint`, { method: "POST", headers }, (res) => {
      answered = true;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", reject);
    });
    req.on("error", (err) => (answered ? undefined : reject(err)));
    for (const c of chunks) req.write(c);
    if (chunks.length > 0) req.end();
    else req.flushHeaders();
  });
}
