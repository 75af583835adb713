/**
 * Crash safety: a process running the dispatcher and deliverer on a SQLite DATA_DIR is killed with SIGKILL while a
 * delivery is in flight (the receiver holds that request unanswered); a new process on the same directory delivers
 * everything. No event is lost, and the only webhook-id received twice is the one in flight at the kill.
 */
import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { ReferenceWebhook } from "./reference-verifier";
import { Receiver } from "./support";

const EVENTS = 20;
const KILL_AT_REQUEST = 8;
const FIXTURE = join(__dirname, "fixtures", "engine-process.ts");

interface Engine {
  child: ChildProcess;
  lines: string[];
  stderr: string[];
  exited: Promise<unknown>;
  /** Resolves when the process printed `ready`. */
  ready: Promise<void>;
}

function spawnEngine(dataDir: string, receiverUrl: string): Engine {
  const child = spawn(process.execPath, ["--require", "tsx/cjs", FIXTURE], {
    env: { ...process.env, DATA_DIR: dataDir, RECEIVER_URL: receiverUrl, EVENTS: String(EVENTS) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const stderr: string[] = [];
  const exited = once(child, "exit");
  child.stderr!.on("data", (c: Buffer) => stderr.push(c.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      lines.push(line);
      if (line === "ready") resolve();
    });
    void exited.then(() => reject(new Error(`engine exited before ready: ${stderr.join("")}`)));
  });
  return { child, lines, stderr, exited, ready };
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("webhooks: kill -9 mid-delivery", function () {
  this.timeout(60_000);
  let dataDir: string;
  let receiver: Receiver;
  const engines: Engine[] = [];

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "webhooks-crash-"));
    receiver = await Receiver.start();
  });
  after(async () => {
    for (const e of engines) if (e.child.exitCode === null && e.child.signalCode === null) e.child.kill("SIGKILL");
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("loses no event: a new process on the same DATA_DIR delivers the rest, the one in flight again with the same webhook-id", async () => {
    let held: string | undefined;
    const running: { engine?: Engine } = {};
    receiver.fallback = (res, req) => {
      if (receiver.received.length === KILL_AT_REQUEST && held === undefined) {
        held = req.headers["webhook-id"] as string; // in flight: never answered, the process dies meanwhile
        running.engine!.child.kill("SIGKILL");
        return;
      }
      res.writeHead(200).end();
      req.status = 200;
    };
    const first = spawnEngine(dataDir, receiver.url());
    running.engine = first;
    engines.push(first);
    await first.ready.catch(() => undefined); // it may be killed before it says so
    const { secret } = JSON.parse(first.lines[0]!) as { secret: string };
    await first.exited;
    expect(first.child.signalCode).to.equal("SIGKILL");
    expect(held).to.be.a("string");
    const beforeRestart = receiver.received.length;

    const second = spawnEngine(dataDir, receiver.url());
    engines.push(second);
    await second.ready;
    await until(() => new Set(receiver.accepted().map((r) => r.headers["webhook-id"])).size === EVENTS, 30_000, "every event accepted");
    second.child.kill("SIGKILL");
    await second.exited;

    const verifier = new ReferenceWebhook(secret);
    for (const r of receiver.received) verifier.verify(r.body, r.headers);
    const counts = new Map<string, number>();
    for (const r of receiver.received)
      counts.set(r.headers["webhook-id"] as string, (counts.get(r.headers["webhook-id"] as string) ?? 0) + 1);
    expect([...counts.keys()].sort()).to.deep.equal(Array.from({ length: EVENTS }, (_, i) => `evt_${i + 1}`).sort());
    const twice = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
    expect(twice, "received more than once").to.deep.equal([held]);
    expect(counts.get(held!)).to.equal(2);
    expect(beforeRestart).to.equal(KILL_AT_REQUEST);
  });
});
