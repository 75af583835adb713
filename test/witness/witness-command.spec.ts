/**
 * `npm run witness` as an operator runs it (a child process): it creates its key file (0600), prints its verifier
 * key, serves add-checkpoint on the port it prints, keeps the key across starts, and refuses bad arguments (exit 2).
 */
import { expect } from "chai";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { formatCosignerVerifierKey } from "../../shared/tlog/cosignature";
import { parseSignerKey } from "../../shared/tlog/note";
import { requestCosignature } from "../../shared/transparency-log/witness-client";
import { ORIGIN, logKeys, memoryTree, signedCheckpoint } from "../tlog/fixture-log";

const ROOT = join(__dirname, "..", "..");
const NAME = "witness.example/cmd";

interface Started {
  child: ChildProcess;
  listening: { verifierKey: string; url: string; keyCreated: boolean };
}

/** Starts `npm run witness` in its own process group and waits for its "witness listening" line. */
function startCommand(dir: string, args: string[] = []): Promise<Started> {
  const child = spawn(
    "npm",
    [
      "run",
      "--silent",
      "witness",
      "--",
      "--key-file",
      join(dir, "witness.key"),
      "--name",
      NAME,
      "--port",
      "0",
      "--data-dir",
      join(dir, "data"),
      ...args,
    ],
    { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, WITNESS_LOGS: `${ORIGIN}=${logKeys.vkey}` } },
  );
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "witness listening" line in 30 s; stderr: ${stderr}`)), 30_000);
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const entry = JSON.parse(line) as { msg?: string } & Started["listening"];
      if (entry.msg !== "witness listening") return;
      clearTimeout(timer);
      resolve({ child, listening: entry });
    });
    child.once("exit", (code) => reject(new Error(`the witness exited (${code}): ${stderr}`)));
  });
}

/** Stops the process group this test started (npm, tsx and node), and waits for it to go. */
function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    process.kill(-child.pid!, "SIGTERM");
  });
}

describe("witness command: npm run witness", function () {
  this.timeout(90_000);
  const dir = mkdtempSync(join(tmpdir(), "witness-cmd-"));

  it("creates its key file 0600, prints its verifier key, serves, and keeps its key and record across a restart", async () => {
    const tree = memoryTree(300);
    const first = await startCommand(dir);
    let url: string;
    try {
      const keyFile = join(dir, "witness.key");
      expect(statSync(keyFile).mode & 0o777).to.equal(0o600);
      const key = parseSignerKey(readFileSync(keyFile, "utf8").trim());
      if (!key.ok) throw new Error(key.error);
      expect(first.listening.verifierKey).to.equal(formatCosignerVerifierKey(NAME, key.value.publicKey));
      expect(first.listening.keyCreated).to.equal(true);
      url = first.listening.url.replace(/\/add-checkpoint$/, "");
      const cosigned = await requestCosignature(
        { url, verifierKey: first.listening.verifierKey },
        { oldSize: 0, consistencyProof: [], signedCheckpoint: signedCheckpoint(tree, 300) },
      );
      expect(cosigned.ok).to.equal(true);
    } finally {
      await stop(first.child);
    }
    const second = await startCommand(dir);
    try {
      expect(second.listening).to.include({ verifierKey: first.listening.verifierKey, keyCreated: false });
      const again = await requestCosignature(
        { url: second.listening.url.replace(/\/add-checkpoint$/, ""), verifierKey: second.listening.verifierKey },
        { oldSize: 0, consistencyProof: [], signedCheckpoint: signedCheckpoint(tree, 300) },
      );
      expect(again).to.deep.equal({ ok: false, conflictSize: 300 });
    } finally {
      await stop(second.child);
    }
  });

  it("exits 2 with the usage for missing or bad arguments", () => {
    for (const args of [[], ["--key-file", join(dir, "k"), "--name", NAME, "--log", "no-equals-sign"], ["--bogus"]]) {
      const run = spawnSync("npx", ["tsx", "scripts/witness.ts", ...args], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, WITNESS_LOGS: "" },
      });
      expect(run.status, run.stderr).to.equal(2);
      expect(run.stderr).to.match(/usage: npm run witness/);
    }
  });
});
