/**
 * `npm test`'s first step, scripts/test-prerequisites.sh: with the programs out of reach it names the missing
 * packages and the exact apt-get command, exits non-zero at once, and never waits on a password prompt.
 * Run as an unprivileged user (nobody, when the tests run as root), so nothing is ever installed from here.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SCRIPT = join(__dirname, "..", "..", "scripts", "test-prerequisites.sh");
const GO_PACKAGES = "golang-go golang-golang-x-mod-dev golang-github-fxamacker-cbor-dev";

/** Runs the script as an unprivileged user, with only `path` to find programs; stdin closed, 20 s at most. */
function runUnprivileged(path: string, env: Record<string, string> = {}) {
  const asRoot = process.getuid?.() === 0;
  const command = asRoot ? "setpriv" : "env";
  const args = [
    ...(asRoot ? ["--reuid=65534", "--regid=65534", "--clear-groups", "env"] : []),
    "-i",
    `PATH=${path}`,
    ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
    "/bin/bash",
    SCRIPT,
  ];
  return spawnSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 20_000 });
}

describe("test prerequisites: the system packages `npm test` needs", () => {
  let empty: string;
  let withApt: string;
  before(() => {
    empty = mkdtempSync(join(tmpdir(), "prereq-empty-"));
    withApt = mkdtempSync(join(tmpdir(), "prereq-apt-"));
    for (const dir of [empty, withApt]) chmodSync(dir, 0o755);
    // apt-get and sudo themselves (when the machine has them), and none of the programs the tests need
    for (const tool of ["apt-get", "sudo"]) {
      const real = ["/usr/bin", "/bin", "/usr/sbin", "/sbin"].map((d) => join(d, tool)).find((p) => existsSync(p));
      if (real) symlinkSync(real, join(withApt, tool));
    }
  });
  after(() => {
    for (const dir of [empty, withApt]) rmSync(dir, { recursive: true, force: true });
  });

  const expectedPackages = () => ["nats-server", ...(existsSync("/usr/bin/chromium") ? [] : ["chromium"]), GO_PACKAGES].join(" ");

  it("prints the exact apt-get command and exits 1 when the programs are out of reach", () => {
    const run = runUnprivileged(empty);
    expect(run.error, "finished on its own").to.equal(undefined);
    expect(run.status).to.equal(1);
    expect(run.stderr).to.contain(`missing: ${expectedPackages()}.`);
    expect(run.stderr.split("\n")).to.include(`  sudo apt-get update && sudo apt-get install -y ${expectedPackages()}`);
  });

  it("does not wait on sudo for a password: with apt-get at hand but no password-less sudo it stops at once with the command", () => {
    const run = runUnprivileged(withApt);
    expect(run.error, "finished on its own, not stuck on a prompt").to.equal(undefined);
    expect(run.status).to.equal(1);
    expect(run.stderr).to.not.contain("Installing");
    expect(run.stderr.split("\n")).to.include(`  sudo apt-get update && sudo apt-get install -y ${expectedPackages()}`);
  });

  it("refuses a CHROMIUM_PATH that is not an executable file, naming it", () => {
    const run = runUnprivileged(empty, { CHROMIUM_PATH: "/nonexistent/chromium" });
    expect(run.status).to.equal(1);
    expect(run.stderr).to.contain("CHROMIUM_PATH=/nonexistent/chromium is not an executable file");
  });
});
