/**
 * Starts a throw-away nats-server on a free loopback port for tests, and stops it.
 * Waits for the server's own "Server is ready" line (no sleeps). CI installs the Debian `nats-server` package
 * (.ci/run); `natsServerAvailable()` lets a suite say plainly when the binary is missing.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";

export interface NatsServerHandle {
  /** `nats://127.0.0.1:<port>` */
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

const BINARY = process.env.NATS_SERVER_BIN ?? "nats-server";

export function natsServerAvailable(): boolean {
  const probe = spawnSync(BINARY, ["--version"], { stdio: "ignore" });
  return probe.error === undefined && probe.status === 0;
}

/** Starts nats-server on 127.0.0.1 with a port the server picks itself (`-p -1`), so no port race. */
export function startNatsServer(timeoutMs = 10_000): Promise<NatsServerHandle> {
  return new Promise((resolve, reject) => {
    const child = spawn(BINARY, ["-a", "127.0.0.1", "-p", "-1"], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let port: number | null = null;
    let settled = false;
    const timer = setTimeout(() => fail(new Error(`nats-server did not become ready in ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const fail = (err: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(err);
    };
    const onOutput = (chunk: Buffer): void => {
      output += chunk.toString();
      const m = /Listening for client connections on [^\s]+:(\d+)/.exec(output);
      if (m) port = Number(m[1]);
      if (port !== null && output.includes("Server is ready") && !settled) {
        settled = true;
        clearTimeout(timer);
        const p = port;
        resolve({
          url: `nats://127.0.0.1:${p}`,
          port: p,
          process: child,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once("exit", () => done());
              child.kill("SIGTERM");
            }),
        });
      }
    };
    child.stdout.on("data", onOutput);
    child.stderr.on("data", onOutput);
    child.once("error", (err) => fail(new Error(`cannot run ${BINARY}: ${err.message}`)));
    child.once("exit", (code) => fail(new Error(`nats-server exited early (code ${code}):\n${output}`)));
  });
}
