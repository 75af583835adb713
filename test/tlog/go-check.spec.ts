/**
 * An independent implementation check: the library writes a log of 70,000 entries (tiles, entry bundles, signed
 * checkpoint, a consistency proof, a tlog-proof, a witness cosignature made by the add-checkpoint decision, a COSE
 * receipt) into a directory, and test/fixtures/tlog-go/main.go checks them with Go's golang.org/x/mod/sumdb/{note,tlog},
 * crypto/ed25519 and github.com/fxamacker/cbor. It needs Debian's golang-go, golang-golang-x-mod-dev and
 * golang-github-fxamacker-cbor-dev (README, .ci/run); without them it fails, naming the command.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { makeReceipt } from "../../shared/tlog/cose-receipt";
import { toBase64 } from "../../shared/tlog/encoding";
import { consistencyProof, inclusionProof, leafHash, treeRoot } from "../../shared/tlog/rfc9162";
import { encodeEntryBundle, formatTilePath, hashTile, tilesOfTree } from "../../shared/tlog/tiles";
import { formatTlogProof } from "../../shared/tlog/tlog-proof";
import { decideAddCheckpoint, parseAddCheckpoint, formatAddCheckpoint } from "../../shared/tlog/witness-protocol";
import { ORIGIN, logKeys, logVerifier, memoryTree, signedCheckpoint, witnessKeys } from "./fixture-log";

const INSTALL = "apt-get install -y golang-go golang-golang-x-mod-dev golang-github-fxamacker-cbor-dev";
const GOPATH = "/usr/share/gocode";
const SOURCE = resolve(__dirname, "..", "fixtures", "tlog-go");

function goEnv(cache: string): NodeJS.ProcessEnv {
  return { ...process.env, GO111MODULE: "off", GOPATH, GOCACHE: cache, GOFLAGS: "" };
}

describe("tlog: Go's x/mod, crypto/ed25519 and fxamacker/cbor accept what the library writes", function () {
  this.timeout(300_000);
  let work: string;

  before(() => {
    const go = spawnSync("go", ["version"], { encoding: "utf8" });
    if (go.error || go.status !== 0) throw new Error(`Go is missing (needed for the independent check): ${INSTALL}`);
    for (const pkg of ["golang.org/x/mod/sumdb/note", "golang.org/x/mod/sumdb/tlog", "github.com/fxamacker/cbor"])
      if (!existsSync(join(GOPATH, "src", pkg))) throw new Error(`Go package ${pkg} is missing under ${GOPATH}: ${INSTALL}`);
    work = mkdtempSync(join(tmpdir(), "tlog-go-"));
  });

  after(() => rmSync(work, { recursive: true, force: true }));

  it("builds the checker and it passes every check on our files", () => {
    const SIZE = 70000;
    const FROM = 65537;
    const INDEX = 69001;
    const tree = memoryTree(SIZE);
    const out = join(work, "log");
    const write = (path: string, data: string | Uint8Array) => {
      mkdirSync(dirname(join(out, path)), { recursive: true });
      writeFileSync(join(out, path), data);
    };
    for (const tile of tilesOfTree(SIZE)) {
      write(join("tiles", formatTilePath(tile)), hashTile(tile, tree.read));
      if (tile.level === 0) {
        const first = tile.index * 256;
        const bundle = { level: "entries" as const, index: tile.index, width: tile.width };
        write(join("tiles", formatTilePath(bundle)), encodeEntryBundle(tree.entries.slice(first, first + tile.width)));
      }
    }
    const checkpoint = signedCheckpoint(tree, SIZE);
    write("log.vkey", `${logKeys.vkey}\n`);
    write("witness.vkey", `${witnessKeys.vkey}\n`);
    write("checkpoint", checkpoint);
    const proof = consistencyProof(FROM, SIZE, tree.read);
    write("consistency", [String(FROM), toBase64(treeRoot(FROM, tree.read)), ...proof.map(toBase64)].join("\n") + "\n");
    write("entry", tree.entries[INDEX]!);
    write("entry.tlog-proof", formatTlogProof({ index: INDEX, inclusionProof: inclusionProof(INDEX, SIZE, tree.read), checkpoint }));
    const path = inclusionProof(INDEX, SIZE, tree.read);
    write("entry.receipt", makeReceipt(leafHash(tree.entries[INDEX]!), { treeSize: SIZE, leafIndex: INDEX, path }, logKeys.signer));
    const parsed = parseAddCheckpoint(formatAddCheckpoint({ oldSize: FROM, consistencyProof: proof, note: checkpoint }));
    if (!parsed.ok) throw new Error(parsed.error);
    const decision = decideAddCheckpoint({
      request: parsed.value,
      logKeys: parsed.value.checkpoint.origin === ORIGIN ? [logVerifier] : undefined,
      latest: { size: FROM, rootHash: treeRoot(FROM, tree.read) },
      witnessKey: witnessKeys.signer,
      time: BigInt(Math.floor(Date.now() / 1000)),
    });
    expect(decision.cosign, JSON.stringify(decision)).to.equal(true);
    write("cosignature", decision.body);

    const binary = join(work, "tlog-go-check");
    const build = spawnSync("go", ["build", "-o", binary, "."], {
      cwd: SOURCE,
      env: goEnv(join(tmpdir(), "tlog-go-cache")),
      encoding: "utf8",
    });
    expect(build.status, `go build: ${build.stderr}`).to.equal(0);
    const run = spawnSync(binary, [out], { encoding: "utf8" });
    expect(run.status, `${run.stdout}${run.stderr}`).to.equal(0);
    const oks = run.stdout.split("\n").filter((l) => l.startsWith("ok "));
    expect(oks.map((l) => l.split(" ")[1])).to.deep.equal(["checkpoint", "tiles:", "consistency", "tlog-proof", "cosignature", "COSE"]);
  });
});
