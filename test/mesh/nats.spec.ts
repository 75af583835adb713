import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { httpUrl, listenAddresses } from "../../shared/mesh/listen-addresses";
import { requireNatsServer, startNatsServer, type NatsServerHandle } from "../../fixtures/processes/nats-server";
import { AlreadyTakenError, TEST_ROUTES } from "./fixtures/mesh-test.service";
import { errorBody, http, pollUntil, postJson, startGateway, TEST_ENV, type RunningGateway } from "../../fixtures/mesh/helpers";

const REPO = join(__dirname, "..", "..");

/** Spawns test/mesh/fixtures/service-node.ts (real broker config + mesh-test service) and waits for READY. */
function startServiceNode(env: Record<string, string>): Promise<{ child: ChildProcess; nodeID: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--require", "tsx/cjs", join(__dirname, "fixtures", "service-node.ts")], {
      cwd: REPO,
      env: { ...process.env, ...TEST_ENV, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const onData = (c: Buffer): void => {
      out += c.toString();
      const m = /READY (\S+)/.exec(out);
      if (m) resolve({ child, nodeID: m[1]! });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
    child.once("exit", (code) => reject(new Error(`service node exited (${code}) before READY:\n${out}`)));
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

describe("mesh: two processes over a real NATS server", function () {
  let nats: NatsServerHandle;
  let node: { child: ChildProcess; nodeID: string };
  let gw: RunningGateway;

  before(async function () {
    requireNatsServer(this);
    nats = await startNatsServer();
    const namespace = `mesh-${randomUUID()}`;
    const env = { TRANSPORTER: nats.url, NAMESPACE: namespace };
    // Assigned as each comes up, so `after` cleans up whichever started even if the other failed.
    await Promise.all([
      startServiceNode({ ...env, NODE_ID: "service-node" }).then((n) => (node = n)),
      startGateway({ env, routes: TEST_ROUTES, nodeID: "gateway-node" }).then((g) => (gw = g)),
    ]);
  });

  after(async () => {
    if (node) {
      node.child.kill("SIGTERM");
      await exited(node.child);
    }
    if (gw) await gw.stop();
    if (nats) await nats.stop();
  });

  it("serves a request through the gateway in one process by the service in the other", async () => {
    const res = await pollUntil(async () => {
      const r = await postJson(`${gw.api}/mesh-test/echo`, { name: "across", kind: "beta", count: 3 });
      return r.status === 200 ? r : undefined;
    }, "the remote mesh-test service to answer through the gateway");
    expect(res.json).to.deep.equal({ name: "across", kind: "beta", count: 3, servedBy: "service-node" });
    expect(gw.broker.getLocalService("mesh-test")).to.equal(undefined);
  });

  it("carries validation errors across: 400 naming the field", async () => {
    const res = await postJson(`${gw.api}/mesh-test/echo`, { name: "x", kind: "gamma" });
    expect(res.status).to.equal(400);
    expect(errorBody(res).message).to.contain("'kind'");
  });

  it("rebuilds custom errors as plain errors: type and data survive, the class does not", async () => {
    const res = await http(`${gw.api}/mesh-test/fail/conflict`);
    expect(res.status).to.equal(409);
    expect(res.json).to.deep.equal({ error: "ENTRY_TAKEN", message: "That slot is already taken.", rebuiltTransaction: "84a4…" });

    let caught: unknown = null;
    try {
      await gw.broker.call("mesh-test.fail", { kind: "conflict" });
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(Error);
    expect((caught as { type?: string }).type).to.equal("ENTRY_TAKEN");
    expect(caught instanceof AlreadyTakenError, "instanceof fails across NATS").to.equal(false);
  });

  it("answers 500 JSON (not empty) for an untyped remote failure", async () => {
    const res = await http(`${gw.api}/mesh-test/fail/plain`);
    expect(res.status).to.equal(500);
    expect(errorBody(res).error).to.equal("INTERNAL_ERROR");
  });

  it("reports ready with the transporter connected, and 503 once the remote service is gone", async () => {
    const health = listenAddresses(gw.broker).health!;
    const ready = await pollUntil(async () => {
      const r = await http(httpUrl(health, "/ready"));
      return r.status === 200 ? r : undefined;
    }, "/ready with NATS connected");
    expect(ready.json).to.deep.equal({ status: "ready" });

    node.child.kill("SIGTERM");
    expect(await exited(node.child), "service node exits cleanly on SIGTERM").to.equal(0);
    const res = await pollUntil(async () => {
      const r = await postJson(`${gw.api}/mesh-test/echo`, { name: "gone", kind: "alpha" });
      return r.status === 503 ? r : undefined;
    }, "the gateway to notice the node left");
    expect(errorBody(res).error).to.equal("SERVICE_UNAVAILABLE");
  });
});
