/**
 * An independent check of a LIVE log. The real mesh (gateway, calendar, …) takes 70,000 hashes over HTTP
 * (`POST /batch/submit`, 5,000 a request), and test/fixtures/tlog-go (`tlog-go-check live`, live.go) — Go's
 * golang.org/x/mod/sumdb/{note,tlog} and net/http, none of our code — fetches what the log serves and checks it
 * against the spec texts (c2sp.org/tlog-checkpoint, tlog-tiles, tlog-proof; RFC 6962 hashing). It proves that:
 * - `<prefix>/checkpoint` opens with note.Open under the published verifier key, and its text is a checkpoint;
 * - the tiles `<prefix>/tile/<L>/<N>[.p/<W>]` give the signed root (x/mod's TileHashReader and TreeHash, with a
 *   TileReader mapping x/mod's tile/8/L/N to the C2SP path), and every tile is authenticated against that root (a
 *   full tile's Merkle hash is its hash in its parent tile: x/mod's HashFromTile and NodeHash);
 * - each entry bundle `<prefix>/tile/entries/<N>[.p/<W>]` holds its W 32-byte entries, whose RFC 6962 leaf hashes
 *   (tlog.RecordHash) are the hashes of their authenticated level-0 tile;
 * - from the entries alone x/mod rebuilds the tree: its root is the signed one and every tile of every level (full
 *   and partial: 274 + 2 + 1 here) is byte for byte the served one;
 * - `/log/consistency` proofs from an earlier signed checkpoint (15,000) and from each receipt's checkpoint pass
 *   tlog.CheckTree and equal tlog.ProveTree over the tiles;
 * - receipts' `/batch/receipt/{id}/proof` tlog-proofs: the entry SHA-256(nonce ‖ hash), the nonce from the `extra`
 *   line, is the served entry at the proof's index and passes tlog.CheckRecord against the proof's signed
 *   checkpoint; the path equals tlog.ProveRecord over the tiles.
 * And that the check is not vacuous: through a local proxy that flips one byte of a full level-0 tile, of the full or
 * the partial level-1 tile, or of an entry bundle, the same check fails naming that file.
 * Needs Debian's golang-go and golang-golang-x-mod-dev (as test/tlog/go-check.spec.ts).
 */
import { expect } from "chai";
import { execFile, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { http, pollUntil, postJson } from "../../fixtures/mesh/helpers";
import { IssuanceWorld } from "../../fixtures/issuance/issuance-world";
import type { SubmitAnswer } from "../../shared/merkle";

const INSTALL = "apt-get install -y golang-go golang-golang-x-mod-dev golang-github-fxamacker-cbor-dev";
const GOPATH = "/usr/share/gocode";
const SOURCE = resolve(__dirname, "..", "fixtures", "tlog-go");
/** BATCH_SUBMIT_MAX_HASHES' default (docs/api.md: a request must fit the gateway's 512 KiB body limit) */
const PER_REQUEST = 5_000;
/**
 * Hashes before the earlier checkpoint, then after it: 70,000 in all, as c2sp.org/tlog-tiles' example (and the
 * library's check, test/tlog/go-check.spec.ts): 273 full level-0 tiles and one 112 wide, a full level-1 tile and one
 * 17 wide, a level-2 tile 1 wide.
 */
const FIRST = [5_000, 5_000, 5_000];
const SECOND = Array.from({ length: 11 }, () => 5_000);

interface LogInfo {
  origin: string;
  verifierKey: string;
  monitoringPrefix: string;
  size: number;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command without blocking the event loop (the gateway the Go program reads serves from this process). */
function run(file: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return new Promise((done) =>
    execFile(file, args, { ...opts, encoding: "utf8", maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      done({ code: err ? (typeof err.code === "number" ? err.code : -1) : 0, stdout, stderr }),
    ),
  );
}

const checkpointSize = (text: string): number => Number(text.split("\n")[1]);

/** A proxy in front of `upstream` answering what it answers, with `tamper` applied to each body by its path. */
async function tamperingProxy(upstream: URL, tamper: (path: string, body: Buffer) => Buffer): Promise<{ base: string; server: Server }> {
  const server = createServer((req, res) => {
    const up = request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { "accept-encoding": "identity" } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (c: Buffer) => chunks.push(c));
        answer.on("end", () => {
          const body = tamper(req.url ?? "", Buffer.concat(chunks));
          res.writeHead(answer.statusCode ?? 502, {
            "Content-Type": answer.headers["content-type"] ?? "application/octet-stream",
            "Content-Length": body.length,
          });
          res.end(body);
        });
      },
    );
    up.on("error", (err) => res.writeHead(502).end(String(err)));
    up.end();
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("transparency log: Go's x/mod checks what a live log serves over HTTP", function () {
  this.timeout(120_000);
  let w: IssuanceWorld;
  let work: string;
  let binary: string;
  let info: LogInfo;
  let size: number;
  const api = () => w.mesh.api;

  before(async () => {
    const go = spawnSync("go", ["version"], { encoding: "utf8" });
    if (go.error || go.status !== 0) throw new Error(`Go is missing (needed for the independent check): ${INSTALL}`);
    for (const pkg of ["golang.org/x/mod/sumdb/note", "golang.org/x/mod/sumdb/tlog", "github.com/fxamacker/cbor"])
      if (!existsSync(join(GOPATH, "src", pkg))) throw new Error(`Go package ${pkg} is missing under ${GOPATH}: ${INSTALL}`);
    work = mkdtempSync(join(tmpdir(), "tlog-go-live-"));
    binary = join(work, "tlog-go-check");
    const env = { ...process.env, GO111MODULE: "off", GOPATH, GOCACHE: join(tmpdir(), "tlog-go-cache"), GOFLAGS: "" };
    // the build runs while the mesh starts
    const [build, world] = await Promise.all([
      run("go", ["build", "-o", binary, "."], { cwd: SOURCE, env }),
      IssuanceWorld.create(["gateway", "indexer", "verifier", "tx-builder", "submitter", "calendar"], {
        // no anchoring round during the spec: long interval, limits above its hashes
        BATCH_INTERVAL_MS: "600000",
        BATCH_MAX_LEAVES: "1000000",
        BATCH_MAX_PENDING_PER_CLIENT: "1000000",
        LOG_INTEGRATE_MS: "200",
      }),
    ]);
    w = world;
    expect(build.code, `go build: ${build.stderr}`).to.equal(0);
    info = (await http(`${api()}/log`)).json as LogInfo;
  });

  after(async () => {
    await w?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** Submits `counts` requests of fresh hashes, two at a time; its receipts, in order. */
  async function submit(counts: number[]): Promise<SubmitAnswer["receipts"]> {
    const answers: SubmitAnswer["receipts"][] = [];
    for (let i = 0; i < counts.length; i += 2)
      answers.push(
        ...(await Promise.all(
          counts.slice(i, i + 2).map(async (count) => {
            expect(count).to.be.at.most(PER_REQUEST);
            const hashes = Array.from({ length: count }, () => randomBytes(32).toString("hex"));
            const res = await postJson(`${api()}/batch/submit`, { hashes });
            expect(res.status, res.text).to.equal(202);
            return (res.json as SubmitAnswer).receipts;
          }),
        )),
      );
    return answers.flat();
  }

  /** The served checkpoint, once it covers `target` entries. */
  const checkpointOf = (target: number): Promise<string> =>
    pollUntil(
      async () => {
        const res = await fetch(`${info.monitoringPrefix}/checkpoint`);
        const text = await res.text();
        return res.status === 200 && checkpointSize(text) >= target ? text : undefined;
      },
      `a checkpoint of ${target} entries`,
      45_000,
    );

  /** `tlog-go-check live` on the log (or what `prefix`/`apiBase` serve of it). */
  const goCheck = (args: { prefix?: string; apiBase?: string; old?: string; receipts?: string[] } = {}): Promise<Run> =>
    run(binary, [
      "live",
      "-prefix",
      args.prefix ?? info.monitoringPrefix,
      "-vkey",
      info.verifierKey,
      "-api",
      args.apiBase ?? api(),
      ...(args.old ? ["-old", args.old] : []),
      ...(args.receipts ?? []),
    ]);

  it("Go fetches the checkpoint, tiles, entry bundles, consistency and tlog-proofs and every check passes", async () => {
    expect(info.monitoringPrefix).to.equal(`${api()}/log`);
    const start = info.size;
    expect(start, "a fresh log (the store is in memory): the tile shapes above start at 0").to.equal(0);
    const first = await submit(FIRST);
    const earlier = await checkpointOf(start + first.length);
    const old = join(work, "earlier.checkpoint");
    writeFileSync(old, earlier);
    const second = await submit(SECOND);
    const all = [...first, ...second];
    const final = await checkpointOf(start + all.length);
    size = checkpointSize(final);
    expect(size).to.equal(start + all.length);
    // receipts at both ends, around a tile boundary, in both halves; a proof is served once the receipt has its index
    const picked = [0, 255, 256, 7_777, first.length - 1, first.length, all.length - 1].map((i) => all[i]!);
    for (const r of picked)
      await pollUntil(
        async () => ((await http(`${api()}/batch/receipt/${r.receiptId}/proof`)).status === 200 ? true : undefined),
        `receipt ${r.receiptId}'s proof`,
      );

    const checked = await goCheck({ old, receipts: picked.map((r) => `${r.receiptId}=${r.hash}`) });
    expect(checked.code, `${checked.stdout}${checked.stderr}`).to.equal(0);
    const report = JSON.parse(checked.stdout) as Record<string, unknown>;
    const level0 = Math.ceil(size / 256);
    expect(report).to.include({
      origin: info.origin,
      signer: info.origin,
      size,
      entries: size,
      bundles: level0,
      level0TilesAuthenticated: level0,
      receipts: picked.length,
    });
    const levels = [level0];
    for (let n = size >> 8; n > 0; n >>= 8) levels.push(Math.ceil(n / 256));
    expect(report["tilesByLevel"]).to.deep.equal(levels);
    expect(report["tiles"]).to.equal(levels.reduce((a, b) => a + b));
    expect(report["consistencyFrom"]).to.include(checkpointSize(earlier));
    expect((report["receiptCheckpointSizes"] as number[]).every((s) => s > 0 && s <= size)).to.equal(true);
  });

  /** the partial tile of level `level` of the final tree */
  const partial = (level: number) => {
    const n = size >> (8 * level);
    return `tile/${level}/${String(n >> 8).padStart(3, "0")}.p/${n % 256}`;
  };
  for (const [what, path, at, failure] of [
    // authenticated by its hash in tile/1/000, itself by its hash in the level-2 tile
    [
      "a full level-0 tile",
      () => "tile/0/003",
      17 * 32 + 5,
      /^FAIL tile\/0\/003 does not authenticate against the signed root: its Merkle hash \S+ is not hash 3 of tile\/1\/000, /,
    ],
    [
      "the full level-1 tile",
      () => "tile/1/000",
      200 * 32 + 9,
      /^FAIL tile\/1\/000 does not authenticate against the signed root: its Merkle hash \S+ is not hash 0 of tile\/2\/000\.p\/1, /,
    ],
    // one of the tiles the root is computed from
    [
      "the partial level-1 tile",
      () => partial(1),
      16 * 32,
      /^FAIL tlog\.TreeHash\(\d+\) over the served tiles .*tile\/1\/001\.p\/17.*: downloaded inconsistent tile$/,
    ],
    [
      "an entry bundle",
      () => "tile/entries/003",
      17 * 34 + 2 + 5,
      /^FAIL entry 17 \(log index 785\) of tile\/entries\/003: .* is not hash 17 of tile\/0\/003, /,
    ],
  ] as const)
    it(`fails, naming it, when one byte of ${what} is flipped in transit`, async function () {
      if (size === undefined) this.skip();
      const upstream = new URL(api());
      let flipped = 0;
      const proxy = await tamperingProxy(upstream, (url, body) => {
        if (url !== `${new URL(info.monitoringPrefix).pathname}/${path()}`) return body;
        flipped++;
        const copy = Buffer.from(body);
        copy[at] = copy[at]! ^ 0x01;
        return copy;
      });
      try {
        const checked = await goCheck({
          prefix: proxy.base + new URL(info.monitoringPrefix).pathname,
          apiBase: proxy.base + upstream.pathname,
        });
        expect(flipped, `the Go check did not fetch ${path()}`).to.equal(1);
        expect(checked.code, checked.stdout).to.equal(1);
        expect(checked.stdout.trim()).to.match(failure);
      } finally {
        proxy.server.closeAllConnections();
        await new Promise((ok) => proxy.server.close(ok));
      }
    });
});
