/** Runs `scripts/start.ts` as a child process (one Moleculer node), the way a pod runs it, and reads its output. */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";

const REPO = join(__dirname, "..", "..");

export interface ServiceProcess {
  child: ChildProcess;
  output(): string;
  exit: Promise<number | null>;
  /** Resolves with the first match of `re` in the output; rejects if the process exits first. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** SIGTERM, then waits for the exit code. */
  stop(): Promise<number | null>;
}

export function startServiceProcess(env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, ["--require", "tsx/cjs", join(REPO, "scripts", "start.ts")], {
    cwd: REPO,
    env: { ...process.env, PORT: "0", HEALTH_PORT: "0", METRICS_PORT: "0", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exit,
    waitFor(re, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${re} within ${timeoutMs} ms:\n${out}`)), timeoutMs);
        const check = (): void => {
          const m = re.exec(out);
          if (!m) return;
          clearTimeout(timer);
          child.stdout!.off("data", check);
          child.stderr!.off("data", check);
          resolve(m);
        };
        child.stdout!.on("data", check);
        child.stderr!.on("data", check);
        void exit.then((code) => {
          clearTimeout(timer);
          reject(new Error(`process exited (${code}) before printing ${re}:\n${out}`));
        });
        check();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exit;
    },
  };
}
