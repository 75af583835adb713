import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { http } from "../../fixtures/mesh/helpers";

const REPO = join(__dirname, "..", "..");

interface Run {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
}

function runStart(env: Record<string, string>): Run {
  const child = spawn(process.execPath, ["--require", "tsx/cjs", join(REPO, "scripts", "start.ts")], {
    cwd: REPO,
    // DATA_DIR in a temp folder: the embedded store/devnet must not write into the repository.
    env: {
      ...process.env,
      PORT: "0",
      HEALTH_PORT: "0",
      METRICS_PORT: "0",
      LOG_LEVEL: "warn",
      DATA_DIR: mkdtempSync(join(tmpdir(), "start-")),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => out, exit };
}

/** Resolves with the first match of `re` in the output (or rejects if the process exits first). */
function waitForOutput(run: Run, re: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const m = re.exec(run.output());
      if (m) {
        run.child.stdout!.off("data", check);
        resolve(m);
      }
    };
    run.child.stdout!.on("data", check);
    run.exit.then((code) => reject(new Error(`npm start exited (${code}) before printing ${re}:\n${run.output()}`)), reject);
    check();
  });
}

describe("mesh: npm start (scripts/start.ts)", function () {
  it("starts the embedded system, prints where the API listens, serves it, and stops cleanly on SIGTERM", async () => {
    const run = runStart({});
    try {
      const [, api] = await waitForOutput(run, /"api":"(http:\/\/127\.0\.0\.1:\d+\/api\/v1)"/);
      expect(run.output()).to.match(/"mode":"embedded \(single process\)","services":\[[^\]]*"gateway"/);
      expect(run.output()).to.match(/"probes":\{"live":"http:\/\/127\.0\.0\.1:\d+\/live"/);
      const openapi = await http(`${api}/openapi.json`);
      expect(openapi.status).to.equal(200);
      expect((await http(`${api}/verify/${"c".repeat(64)}`)).status).to.be.oneOf([200, 404, 501]);
    } finally {
      run.child.kill("SIGTERM");
    }
    expect(await run.exit).to.equal(0);
  });

  it("refuses to start with invalid configuration, naming the variable", async () => {
    const run = runStart({ PORT: "http" });
    expect(await run.exit).to.equal(2);
    expect(run.output()).to.contain("PORT=http is not a port number");
  });

  it("refuses to start a service nobody knows (neither the core's nor an extension's), listing the known ones", async () => {
    const run = runStart({ SERVICES: "gatewy" });
    expect(await run.exit).to.equal(2);
    expect(run.output()).to.contain("SERVICES names unknown service(s) gatewy; known: gateway,");
    expect(run.output()).to.contain("connected-goods, fractionized, tokenizable");
  });
});
