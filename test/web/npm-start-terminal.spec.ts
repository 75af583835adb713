/**
 * `npm start` (scripts/start.ts) as a person sees it: on a terminal (a pseudo-terminal from util-linux `script`)
 * the logs are pino-pretty lines and the banner ends with the URL of the pages; piped, every line is a JSON record,
 * the banner's and the ready record's (with the pages' URL) included. Either URL answers with the home page.
 */
import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const REPO = join(__dirname, "..", "..");
const START = `${JSON.stringify(process.execPath)} --require tsx/cjs scripts/start.ts`;
const OPEN_LINE =
  /ready: http:\/\/127\.0\.0\.1:\d+\/api\/v1 answers requests\r?\nopen (http:\/\/127\.0\.0\.1:\d+\/) in a browser to verify and issue certificates\r?\n/;
const READY_RECORD = /\{[^\n]*"mod":"start"[^\n]*"msg":"ready: http:\/\/127\.0\.0\.1:\d+\/api\/v1 answers requests"\}\n/;
const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, "");

interface Run {
  child: ChildProcess;
  output(): string;
  exit: Promise<number | null>;
  dataDir: string;
}

function run(tty: boolean): Run {
  const dataDir = mkdtempSync(join(tmpdir(), "npm-start-tty-"));
  const env = { ...process.env, DATA_DIR: dataDir, PORT: "0", HEALTH_PORT: "0", ENABLE_METRICS: "false", LOG_LEVEL: "info" };
  // `script` runs the command on a pseudo-terminal and copies what it prints to its own stdout. `exec` replaces
  // the shell `script` starts (dash, under SHELL=/bin/sh), which would otherwise also take the Ctrl-C and exit 130.
  const child = tty
    ? spawn("script", ["-qfec", `exec ${START}`, "/dev/null"], {
        cwd: REPO,
        env: { ...env, SHELL: "/bin/sh" },
        stdio: ["pipe", "pipe", "pipe"],
      })
    : spawn(process.execPath, ["--require", "tsx/cjs", "scripts/start.ts"], { cwd: REPO, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => stripAnsi(out), exit, dataDir };
}

async function waitFor(r: Run, re: RegExp, ms: number): Promise<RegExpExecArray> {
  const deadline = Date.now() + ms;
  for (;;) {
    const m = re.exec(r.output());
    if (m) return m;
    if (Date.now() > deadline || r.child.exitCode !== null) throw new Error(`no ${re} in:\n${r.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("npm start: logs for a person on a terminal, JSON lines otherwise, and the pages' URL last", function () {
  this.timeout(150_000);
  const runs: Run[] = [];
  after(async () => {
    for (const r of runs) {
      if (r.child.exitCode === null) r.child.kill("SIGKILL");
      await r.exit;
      rmSync(r.dataDir, { recursive: true, force: true });
    }
  });

  it("prints pino-pretty lines on a TTY and JSON lines through a pipe; both banners end with the page URL, which serves the home page", async () => {
    const terminal = run(true);
    const piped = run(false);
    runs.push(terminal, piped);
    const [ttyOpen, pipeReady] = await Promise.all([waitFor(terminal, OPEN_LINE, 120_000), waitFor(piped, READY_RECORD, 120_000)]);

    const ttyLines = terminal.output().split(/\r?\n/);
    expect(
      ttyLines.some((l) => /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO/.test(l)),
      "pretty INFO lines",
    ).to.equal(true);
    expect(
      ttyLines.filter((l) => l.startsWith('{"level"')),
      "no JSON lines on a terminal",
    ).to.deep.equal([]);
    expect(
      ttyLines.some((l) => l.startsWith("mode: embedded (single process); services: ")),
      "the banner's lines",
    ).to.equal(true);
    // Through a pipe every line is a JSON record, the banner's and the ready record's included.
    const pipeLines = piped.output().split("\n").slice(0, -1);
    const records = pipeLines.map((l) => JSON.parse(l) as { level: number; mod?: string; msg: string; pages?: string });
    expect(records.filter((r) => r.level === 30).length, "JSON lines through a pipe").to.be.above(0);
    expect(records.some((r) => r.mod === "start" && r.msg.startsWith("started: embedded (single process)"))).to.equal(true);
    const pipeOpen = records.find((r) => r.mod === "start" && r.pages !== undefined)!.pages!;
    expect(pipeReady[0]).to.contain(`"pages":"${pipeOpen}"`);

    for (const url of [ttyOpen[1]!, pipeOpen]) {
      const res = await fetch(url);
      expect(res.status).to.equal(200);
      expect(await res.text()).to.contain("<title>Verify or issue certificates</title>");
    }

    // Ctrl-C on the terminal, SIGTERM through the pipe: both stop cleanly.
    terminal.child.stdin!.write("\u0003");
    piped.child.kill("SIGTERM");
    expect(await piped.exit).to.equal(0);
    expect(await terminal.exit).to.equal(0);
  });
});
