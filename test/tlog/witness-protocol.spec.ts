/**
 * shared/tlog/witness-protocol.ts against c2sp.org/tlog-witness §add-checkpoint: the request body round-trips and
 * malformed bodies are refused (400); a good request is cosigned; a fork, a rollback, a wrong old size (409 with the
 * witness's size, text/x.tlog.size), a bad proof (422), a bad signature (403) and an unknown origin (404) are
 * refused as the spec says. test/tlog/go-check.spec.ts verifies a cosignature it made with Go.
 */
import { expect } from "chai";
import { cosignatureVerifier, verifyCosignatureLine } from "../../shared/tlog/cosignature";
import { fromBase64 } from "../../shared/tlog/encoding";
import { openNote } from "../../shared/tlog/note";
import { EMPTY_ROOT, consistencyProof, treeRoot } from "../../shared/tlog/rfc9162";
import { decideAddCheckpoint, formatAddCheckpoint, parseAddCheckpoint, type WitnessedTree } from "../../shared/tlog/witness-protocol";
import { ORIGIN, keys, logVerifier, memoryTree, signedCheckpoint, witnessKeys } from "./fixture-log";

const tree = memoryTree(600);
const other = memoryTree(600, (i) => new TextEncoder().encode(i < 100 ? `entry ${i}` : `forked ${i}`));
const NOW = 1_700_000_000n;

function decide(body: string, latest: WitnessedTree | null, logKeysForOrigin = [logVerifier]) {
  const parsed = parseAddCheckpoint(body);
  if (!parsed.ok) throw new Error(parsed.error);
  return decideAddCheckpoint({
    request: parsed.value,
    logKeys: parsed.value.checkpoint.origin === ORIGIN ? logKeysForOrigin : undefined,
    latest,
    witnessKey: witnessKeys.signer,
    time: NOW,
  });
}

const request = (oldSize: number, size: number, t = tree, proofFrom = t) =>
  formatAddCheckpoint({
    oldSize,
    consistencyProof: oldSize === 0 || oldSize === size ? [] : consistencyProof(oldSize, size, proofFrom.read),
    note: signedCheckpoint(t, size),
  });
const state = (size: number, t = tree): WitnessedTree => ({ size, rootHash: treeRoot(size, t.read) });

describe("tlog witness: add-checkpoint body", () => {
  it("round-trips the spec's layout: old line, proof lines, empty line, checkpoint", () => {
    const body = request(300, 500);
    expect(body.startsWith("old 300\n")).to.equal(true);
    const parsed = parseAddCheckpoint(body);
    expect(parsed.ok && parsed.value.oldSize).to.equal(300);
    expect(parsed.ok && parsed.value.checkpoint.size).to.equal(500);
    expect(parsed.ok && formatAddCheckpoint(parsed.value)).to.equal(body);
  });

  it("refuses malformed bodies", () => {
    const good = request(300, 500);
    const note = signedCheckpoint(tree, 500);
    for (const bad of [
      good.replace("old 300", "old 0300"),
      good.replace("old 300", "old  300"),
      good.replace("old 300", "size 300"),
      `old 300\nnot-base64!\n\n${note}`,
      `old 300\n${"AAAA\n"}\n${note}`, // a hash of 3 bytes
      `old 300\n${"47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n".repeat(64)}\n${note}`, // 64 proof lines
      `old 300\n${note}`, // no empty line before the checkpoint
      `old 300\n\n${note.replace("\n500\n", "\n0500\n")}`,
      `old 300\n\nnot a note\n`,
    ])
      expect(parseAddCheckpoint(bad).ok, bad.slice(0, 60)).to.equal(false);
  });
});

describe("tlog witness: the decision", () => {
  it("cosigns a first checkpoint (old 0) and a consistent growth, returning the state to store", () => {
    const first = decide(request(0, 300), null);
    expect(first).to.include({ cosign: true, status: 200 });
    const next = decide(request(300, 600), state(300));
    expect(next.cosign).to.equal(true);
    if (!next.cosign) return;
    expect(next.state.size).to.equal(600);
    expect(next.state.rootHash).to.deep.equal(treeRoot(600, tree.read));
    const text = signedCheckpoint(tree, 600).split("\n\n")[0] + "\n";
    const line = verifyCosignatureLine(text, next.body, witnessKeys.verifier);
    expect(line.ok && line.value.timestamp).to.equal(NOW);
    // The client's way (spec): concatenate the response to the checkpoint and open it with the witness's key.
    const opened = openNote(signedCheckpoint(tree, 600) + next.body, [logVerifier, cosignatureVerifier(witnessKeys.verifier)]);
    expect(opened.ok && opened.value.verified.map((s) => s.name)).to.deep.equal([ORIGIN, "witness.example/w1"]);
  });

  it("refuses an unknown origin with 404", () => {
    const parsed = parseAddCheckpoint(request(0, 300));
    if (!parsed.ok) throw new Error(parsed.error);
    const d = decideAddCheckpoint({ request: parsed.value, logKeys: undefined, latest: null, witnessKey: witnessKeys.signer, time: NOW });
    expect(d).to.include({ cosign: false, status: 404 });
  });

  it("refuses with 403 a checkpoint signed by another key of the same name, and one whose known signature fails", () => {
    const impostor = keys(ORIGIN);
    const body = formatAddCheckpoint({ oldSize: 0, consistencyProof: [], note: signedCheckpoint(tree, 300, impostor.signer) });
    expect(decide(body, null)).to.include({ cosign: false, status: 403 });
    const note = signedCheckpoint(tree, 300);
    const sig = note.slice(note.lastIndexOf(" ") + 1, -1);
    const bytes = fromBase64(sig)!;
    bytes[10]! ^= 1;
    const tampered = note.replace(sig, Buffer.from(bytes).toString("base64"));
    expect(decide(formatAddCheckpoint({ oldSize: 0, consistencyProof: [], note: tampered }), null)).to.include({
      cosign: false,
      status: 403,
    });
  });

  it("refuses with 409 and the witness's size (text/x.tlog.size) an old size that is not the latest cosigned", () => {
    expect(decide(request(200, 600), state(300))).to.deep.include({
      cosign: false,
      status: 409,
      contentType: "text/x.tlog.size",
      body: "300\n",
    });
    expect(decide(request(300, 600), null)).to.deep.include({ cosign: false, status: 409, contentType: "text/x.tlog.size", body: "0\n" });
  });

  it("refuses a rollback: an old size above the checkpoint's (400), or the smaller tree claimed from the right old size (409)", () => {
    const rollback = formatAddCheckpoint({ oldSize: 500, consistencyProof: [], note: signedCheckpoint(tree, 300) });
    expect(decide(rollback, state(500))).to.include({ cosign: false, status: 400 });
    expect(decide(request(200, 300), state(500))).to.deep.include({ cosign: false, status: 409, body: "500\n" });
  });

  it("refuses a fork (same size, another root) and a bad consistency proof with 422", () => {
    expect(decide(request(300, 300), state(300, other))).to.include({ cosign: false, status: 422 });
    expect(decide(request(300, 600, other), state(300))).to.include({ cosign: false, status: 422 });
    const parsed = parseAddCheckpoint(request(300, 600));
    if (!parsed.ok) throw new Error(parsed.error);
    parsed.value.consistencyProof[0]![0]! ^= 1;
    const d = decideAddCheckpoint({
      request: parsed.value,
      logKeys: [logVerifier],
      latest: state(300),
      witnessKey: witnessKeys.signer,
      time: NOW,
    });
    expect(d).to.include({ cosign: false, status: 422 });
  });

  it("refuses with 422 a proof from size 0 and an empty tree with another root", () => {
    const withProof = formatAddCheckpoint({ oldSize: 0, consistencyProof: [EMPTY_ROOT], note: signedCheckpoint(tree, 300) });
    expect(decide(withProof, null)).to.include({ cosign: false, status: 422 });
    expect(decide(request(0, 0), null)).to.include({ cosign: true });
  });
});
