/**
 * shared/tlog checkpoint.ts, tlog-proof.ts and cose-receipt.ts: the checkpoint body of c2sp.org/tlog-checkpoint
 * (the spec's example parses; malformed bodies are refused), the c2sp.org/tlog-proof@v1 text (round trip, the
 * spec's layout, its verification and every refusal), and RFC 9942 receipts (made, verified, tampers refused).
 * Go's x/mod and fxamacker/cbor check the same files in test/tlog/go-check.spec.ts.
 */
import { expect } from "chai";
import { decode, encode, Tag } from "cbor2";
import { formatCheckpoint, parseCheckpoint } from "../../shared/tlog/checkpoint";
import { cosign, cosignatureVerifier } from "../../shared/tlog/cosignature";
import { makeReceipt, verifyReceipt } from "../../shared/tlog/cose-receipt";
import { inclusionProof, leafHash } from "../../shared/tlog/rfc9162";
import { formatTlogProof, parseTlogProof, verifyTlogProof } from "../../shared/tlog/tlog-proof";
import { ORIGIN, keys, logKeys, logVerifier, memoryTree, signedCheckpoint, witnessKeys } from "./fixture-log";

const tree = memoryTree(1000);
const SIZE = 1000;
const INDEX = 737;
const checkpoint = signedCheckpoint(tree, SIZE);
const checkpointText = checkpoint.split("\n\n")[0] + "\n";
const cosigned = checkpoint + cosign(checkpointText, witnessKeys.signer, 1_700_000_000n);
const leaf = leafHash(tree.entries[INDEX]!);

describe("tlog checkpoint", () => {
  it("parses the spec's example body and formats it back", () => {
    const text = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n";
    const parsed = parseCheckpoint(text);
    expect(parsed.ok && parsed.value.origin).to.equal("example.com/behind-the-sofa");
    expect(parsed.ok && parsed.value.size).to.equal(20852163);
    expect(parsed.ok && formatCheckpoint(parsed.value)).to.equal(text);
    const ext = parseCheckpoint(`${text}extension line\n`);
    expect(ext.ok && ext.value.extensions).to.deep.equal(["extension line"]);
  });

  it("refuses malformed bodies", () => {
    const root = "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=";
    for (const bad of [
      `o\n1\n${root}`, // no final newline
      `o\n1\n`,
      `\n1\n${root}\n`,
      `o\n01\n${root}\n`,
      `o\n-1\n${root}\n`,
      `o\n1.0\n${root}\n`,
      `o\n1\nAAAA\n`,
      `o\n1\n${root}\n\n`,
      `o\n1\n${root}\nx\n\ny\n`,
    ])
      expect(parseCheckpoint(bad).ok, JSON.stringify(bad)).to.equal(false);
    expect(parseCheckpoint(`o\n0\n${root}\n`).ok).to.equal(true);
  });
});

describe("tlog tlog-proof", () => {
  const proof = { index: INDEX, inclusionProof: inclusionProof(INDEX, SIZE, tree.read), checkpoint: cosigned };
  const text = formatTlogProof(proof);
  const witness = cosignatureVerifier(witnessKeys.verifier);

  it("writes the header, index, proof lines, an empty line and the checkpoint verbatim, and parses it back", () => {
    expect(text.split("\n").slice(0, 2)).to.deep.equal(["c2sp.org/tlog-proof@v1", `index ${INDEX}`]);
    expect(text.endsWith(`\n\n${cosigned}`)).to.equal(true);
    expect(parseTlogProof(text)).to.deep.equal({ ok: true, value: proof });
    const withExtra = formatTlogProof({ ...proof, extra: Uint8Array.of(1, 2, 3) });
    expect(withExtra.split("\n")[1]).to.equal("extra AQID");
    expect(parseTlogProof(withExtra)).to.deep.equal({ ok: true, value: { ...proof, extra: Uint8Array.of(1, 2, 3) } });
  });

  it("verifies: log signature for the origin, the witness quorum, the inclusion", () => {
    const r = verifyTlogProof(text, leaf, { origin: ORIGIN, logKeys: [logVerifier], witnessKeys: [witness], quorum: 1 });
    expect(r.ok && r.value.cosigners.map((s) => s.name)).to.deep.equal(["witness.example/w1"]);
  });

  it("refuses another leaf, another origin, another log key, a missing quorum, a tampered proof, a malformed text", () => {
    const policy = { origin: ORIGIN, logKeys: [logVerifier], witnessKeys: [witness], quorum: 1 };
    const refused = (t: string, l = leaf, p = policy) => expect(verifyTlogProof(t, l, p).ok).to.equal(false);
    refused(text, leafHash(tree.entries[INDEX + 1]!));
    refused(text, leaf, { ...policy, origin: "other.example/log" });
    refused(text, leaf, { ...policy, logKeys: [cosignatureVerifier(keys("x", 4).verifier)] });
    refused(text, leaf, { ...policy, quorum: 2 });
    refused(formatTlogProof({ ...proof, index: INDEX + 1 }));
    refused(formatTlogProof({ ...proof, inclusionProof: proof.inclusionProof.slice(1) }));
    refused(text.replace("c2sp.org/tlog-proof@v1", "c2sp.org/tlog-proof@v2"));
    refused(text.replace(`index ${INDEX}`, `index 0${INDEX}`));
    refused(text.replace(`index ${INDEX}\n`, ""));
    refused(text.replace(`\n\n${ORIGIN}`, `\n${ORIGIN}`));
  });
});

describe("tlog COSE receipt (RFC 9942)", () => {
  const inclusion = { treeSize: SIZE, leafIndex: INDEX, path: inclusionProof(INDEX, SIZE, tree.read) };
  const receipt = makeReceipt(leaf, inclusion, logKeys.signer);

  it("is a tagged COSE_Sign1 with alg -8, kid, vds 1 protected, vdp -1 unprotected and a detached payload", () => {
    const sign1 = decode(receipt, { preferMap: true }) as Tag;
    expect(Number(sign1.tag)).to.equal(18);
    const [prot, unprot, payload] = sign1.contents as [Uint8Array, Map<number, Map<number, Uint8Array[]>>, null];
    expect(payload).to.equal(null);
    const header = decode(prot, { preferMap: true }) as Map<number, unknown>;
    expect([...header.keys()]).to.deep.equal([1, 4, 395]);
    expect(header.get(1)).to.equal(-8);
    expect(header.get(395)).to.equal(1);
    expect(Buffer.from(header.get(4) as Uint8Array).readUInt32BE(0)).to.equal(logKeys.verifier.keyId);
    const [size, index, path] = decode(unprot.get(396)!.get(-1)![0]!) as [number, number, Uint8Array[]];
    expect([size, index, path.length]).to.deep.equal([SIZE, INDEX, inclusion.path.length]);
  });

  it("verifies against the leaf and the log key, giving the checkpoint's root", () => {
    const r = verifyReceipt(receipt, leaf, logKeys.verifier);
    expect(r.ok && Buffer.from(r.value.root).toString("base64")).to.equal(checkpointText.split("\n")[2]);
  });

  it("writes the same receipt when the path's hashes are Node Buffers (a server's), not plain Uint8Arrays", () => {
    const fromBuffers = makeReceipt(leaf, { ...inclusion, path: inclusion.path.map((h) => Buffer.from(h)) }, logKeys.signer);
    expect(Buffer.from(fromBuffers).equals(Buffer.from(receipt))).to.equal(true);
    expect(verifyReceipt(fromBuffers, leaf, logKeys.verifier).ok).to.equal(true);
  });

  it("refuses another leaf, another key, a changed index or path, an attached payload, another alg", () => {
    const sign1 = decode(receipt, { preferMap: true }) as Tag;
    const [prot, unprot, , sig] = sign1.contents as [Uint8Array, Map<number, Map<number, Uint8Array[]>>, null, Uint8Array];
    const rebuilt = (p: Uint8Array, u: unknown, payload: unknown, s: Uint8Array) => encode(new Tag(18, [p, u, payload, s]));
    const proofWith = (index: number, path: Uint8Array[]) => new Map([[396, new Map([[-1, [encode([SIZE, index, path])]]])]]);
    expect(verifyReceipt(receipt, leafHash(tree.entries[0]!), logKeys.verifier).ok).to.equal(false);
    expect(verifyReceipt(receipt, leaf, keys(ORIGIN).verifier).ok).to.equal(false);
    expect(verifyReceipt(rebuilt(prot, proofWith(INDEX - 1, inclusion.path), null, sig), leaf, logKeys.verifier).ok).to.equal(false);
    const bent = inclusion.path.map((h, i) => (i === 2 ? Uint8Array.from(h, (b, j) => (j === 0 ? b ^ 1 : b)) : h));
    expect(verifyReceipt(rebuilt(prot, proofWith(INDEX, bent), null, sig), leaf, logKeys.verifier).ok).to.equal(false);
    expect(verifyReceipt(rebuilt(prot, unprot, new Uint8Array(32), sig), leaf, logKeys.verifier).ok).to.equal(false);
    const es256 = encode(
      new Map<number, unknown>([
        [1, -7],
        [4, (decode(prot, { preferMap: true }) as Map<number, unknown>).get(4)],
        [395, 1],
      ]),
    );
    expect(verifyReceipt(rebuilt(es256, unprot, null, sig), leaf, logKeys.verifier).ok).to.equal(false);
    expect(verifyReceipt(Uint8Array.of(1, 2, 3), leaf, logKeys.verifier).ok).to.equal(false);
  });
});
