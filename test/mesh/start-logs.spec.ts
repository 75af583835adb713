/**
 * What `npm start` (scripts/start.ts) writes when its output is piped or collected, as an operator ships it: JSON
 * lines only, the banner included; a fresh start on an empty DATA_DIR that logs a clean sequence (no warnings, no
 * repeated waiting lines, no "rolled back" for the chain-sync's first intersection); one access record per request,
 * without queries, bodies or credentials; a warning for a transaction the ledger refuses; and ACCESS_LOG=off.
 */
import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChainClient } from "../../shared/chain";
import { buildPayment, type OgmiosUtxo } from "../../shared/csl";
import { generateMnemonic, Wallet } from "../../shared/wallet";
import { http } from "../../fixtures/mesh/helpers";

const REPO = join(__dirname, "..", "..");

interface LogRecord {
  level: number;
  msg: string;
  mod?: string;
  [field: string]: unknown;
}

interface PipedStart {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  records(): LogRecord[];
  exit: Promise<number | null>;
  dataDir: string;
}

function startPiped(env: Record<string, string>): PipedStart {
  const dataDir = mkdtempSync(join(tmpdir(), "start-logs-"));
  const child = spawn(process.execPath, ["--require", "tsx/cjs", join(REPO, "scripts", "start.ts")], {
    cwd: REPO,
    env: { ...process.env, DATA_DIR: dataDir, PORT: "0", HEALTH_PORT: "0", ENABLE_METRICS: "false", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (err += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const complete = () => out.slice(0, out.lastIndexOf("\n") + 1);
  return {
    child,
    stdout: complete,
    stderr: () => err,
    // every complete line, parsed: a line that is not JSON fails here
    records: () =>
      complete()
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as LogRecord),
    exit,
    dataDir,
  };
}

async function waitForRecord(run: PipedStart, test: (r: LogRecord) => boolean, what: string, ms = 120_000): Promise<LogRecord> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = run.records().find(test);
    if (found) return found;
    if (Date.now() > deadline || run.child.exitCode !== null) throw new Error(`no ${what} in:\n${run.stdout()}\n${run.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const isReady = (r: LogRecord) => r.mod === "start" && r.msg.startsWith("ready: ");

describe("npm start, piped: JSON lines an operator can ship", function () {
  this.timeout(180_000);
  const ADMIN_KEY = `admin-${randomBytes(12).toString("hex")}`;
  const WEBHOOK_TOKEN = `whm_${randomBytes(24).toString("base64url")}`;
  const QUERY_SECRET = `q${randomBytes(12).toString("hex")}`;
  const runs: PipedStart[] = [];
  let app: PipedStart;
  let ready: LogRecord;

  before(async () => {
    app = startPiped({ ADMIN_API_KEY: ADMIN_KEY, RATE_LIMIT_POST_PER_MINUTE: "0" });
    runs.push(app);
    ready = await waitForRecord(app, isReady, "ready record");
  });
  after(async () => {
    for (const r of runs) {
      if (r.child.exitCode === null) r.child.kill("SIGTERM");
      await r.exit;
      rmSync(r.dataDir, { recursive: true, force: true });
    }
  });

  it("writes only JSON records to stdout, the banner as one record with its facts, then the ready record", () => {
    const records = app.records(); // throws on a line that is not JSON
    expect(app.stdout().split("\n").slice(0, -1)).to.have.length(records.length);
    const started = records.filter((r) => r.mod === "start" && r.msg.startsWith("started: "));
    expect(started, "one banner record").to.have.length(1);
    const banner = started[0]!;
    expect(banner.level).to.equal(30);
    expect(banner["mode"]).to.equal("embedded (single process)");
    expect(banner["services"]).to.include.members(["gateway", "indexer", "submitter"]);
    expect(banner["api"]).to.match(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(banner["chain"]).to.include({ network: "devnet", devnet: true });
    expect(banner["bootstrap"]).to.include({ outcome: "done" });
    expect(ready).to.include({ ready: true, api: banner["api"] });
    expect(ready["pages"]).to.match(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(app.stderr()).to.equal("");
  });

  it("logs a fresh start on an empty DATA_DIR as a clean sequence: no warning or error, no Moleculer waiting lines", () => {
    const untilReady = app.records().slice(0, app.records().indexOf(app.records().find(isReady)!));
    expect(
      untilReady.filter((r) => r.level >= 40).map((r) => r.msg),
      "warnings and errors",
    ).to.deep.equal([]);
    expect(untilReady.filter((r) => /Waiting for service|are available\./.test(r.msg)).map((r) => r.msg)).to.deep.equal([]);
    expect(untilReady.filter((r) => /rolled back/.test(r.msg)).map((r) => r.msg)).to.deep.equal([]);
    const indexer = untilReady.filter((r) => r.mod === "indexer").map((r) => r.msg);
    expect(indexer).to.include("following the chain from its origin");
    // the configuration is in the record (secrets masked), not only its title
    const configuration = untilReady.find((r) => r.msg === "Configuration")!;
    expect(configuration["config"]).to.include({ network: "devnet", adminApiKey: "***", accessLog: true });
    const msgs = untilReady.map((r) => r.msg);
    expect(new Set(msgs).size, `repeated lines: ${msgs.filter((m, i) => msgs.indexOf(m) !== i).join(" | ")}`).to.equal(msgs.length);
  });

  it("writes one access record per request — method, path without its query, status, duration, request id — and never a credential, query or body", async () => {
    const api = String(ready["api"]);
    const origin = api.replace(/\/api\/v1$/, "");
    const hash = randomBytes(32).toString("hex");
    const payer = Wallet.fromMnemonic(generateMnemonic());

    // a transaction the ledger refuses: it spends an output that never existed
    const client = createChainClient({
      url: String((app.records().find((r) => r.mod === "start")!["chain"] as { ogmiosUrl: string }).ogmiosUrl),
    });
    const phantom = {
      transaction: { id: randomBytes(32).toString("hex") },
      index: 0,
      address: payer.address,
      value: { ada: { lovelace: 50_000_000n } },
    } as unknown as OgmiosUtxo;
    const refused = buildPayment({
      protocolParameters: await client.protocolParameters(),
      utxos: [phantom],
      changeAddress: payer.address,
      outputs: [{ address: payer.address, lovelace: 5_000_000n }],
    });
    await client.close();

    const requests: { method: string; path: string; res: Awaited<ReturnType<typeof http>> }[] = [];
    const send = async (method: string, url: string, init: RequestInit = {}) => {
      const res = await http(url, { method, ...init });
      requests.push({ method, path: new URL(url).pathname, res });
      return res;
    };
    await send("GET", `${api}/verify/${hash}?apiKey=${QUERY_SECRET}`);
    await send("GET", `${api}/admin/plugins`, { headers: { "X-Api-Key": ADMIN_KEY } });
    await send("GET", `${api}/webhooks`, { headers: { Authorization: `Bearer ${WEBHOOK_TOKEN}` } });
    await send("GET", `${origin}/`);
    const submitted = await send("POST", `${api}/transaction/submit`, {
      headers: { "Content-Type": "application/json", "X-Request-ID": "operator-trace-1" },
      body: JSON.stringify({ transaction: refused.cborHex }),
    });
    expect(submitted.status, submitted.text).to.equal(400);
    expect((submitted.json as { error: string }).error).to.equal("LEDGER_REJECTED");

    const accessOf = (r: LogRecord) => r.msg === "request" && r.mod === "gateway";
    await waitForRecord(app, (r) => accessOf(r) && r["requestId"] === "operator-trace-1", "the submission's access record", 10_000);
    const access = app.records().filter(accessOf);
    for (const { method, path, res } of requests) {
      const id = res.headers.get("x-request-id");
      const mine = access.filter((r) => r["method"] === method && r["path"] === path);
      expect(mine, `${method} ${path} in ${JSON.stringify(access)}`).to.have.length(1);
      const record = mine[0]!;
      expect(record.level).to.equal(30);
      expect(record["status"]).to.equal(res.status);
      expect(record["durationMs"]).to.be.a("number").at.least(0);
      if (id !== null) expect(record["requestId"]).to.equal(id);
      else expect(record["requestId"]).to.be.a("string").and.not.equal("");
      expect(Object.keys(record)).to.not.include.members(["headers", "body", "query", "params"]);
    }

    // the refusal is a warning, tied to the request by its id
    const refusal = await waitForRecord(app, (r) => r.msg === "transaction refused by the ledger", "the refusal warning", 10_000);
    expect(refusal).to.include({ level: 40, mod: "submitter", requestId: "operator-trace-1", code: 3117 });

    const everything = app.stdout() + app.stderr();
    for (const secret of [ADMIN_KEY, WEBHOOK_TOKEN, QUERY_SECRET, refused.cborHex.slice(0, 64)]) expect(everything).to.not.contain(secret);
  });

  it("writes no access records with ACCESS_LOG=off", async () => {
    const quiet = startPiped({ ACCESS_LOG: "off", SERVICES: "gateway" });
    runs.push(quiet);
    const r = await waitForRecord(quiet, isReady, "ready record");
    const res = await http(`${String(r["api"])}/openapi.json`);
    expect(res.status).to.equal(200);
    await waitForRecord(quiet, (x) => x.msg === "Configuration", "configuration");
    expect(quiet.records().filter((x) => x.msg === "request")).to.deep.equal([]);
    quiet.child.kill("SIGTERM");
    expect(await quiet.exit).to.equal(0);
    expect(quiet.records().filter((x) => x.msg === "request")).to.deep.equal([]);
  });
});
