/**
 * The whole core API in one process over a deployed protocol (every built service): an operator plugin loaded
 * from PLUGINS_DIR shows up in the monitoring API and runs on every block, and malformed input on every
 * implemented route answers 4xx JSON — never a 5xx.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startDevnetServer, type DevnetServer } from "../../shared/devnet";
import { ROUTES, type RouteSpec } from "../../shared/gateway/routes";
import { makeCertificate } from "../../shared/protocol";
import { createStore, type Store } from "../../shared/store";
import { SERVICE_NAMES } from "../../shared/mesh/service-names";
import { http, pollUntil } from "../../fixtures/mesh/helpers";
import { defaultBootstrap, ProtocolFixture } from "../../fixtures/onchain/protocol-fixture";
import { startMesh, type RunningMesh } from "../../fixtures/mesh/mesh-harness";
import { DataHash } from "../../shared/domain/hex";

/** Every service: all are built, so every route of the table is exercised. */
const ALL_SERVICES = SERVICE_NAMES;

describe("the whole core API: operator plugins and malformed input", function () {
  this.timeout(180_000);
  let f: ProtocolFixture;
  let server: DevnetServer;
  let store: Store;
  let mesh: RunningMesh;

  before(async () => {
    f = await ProtocolFixture.create("shipped");
    await f.mintBootstrap(defaultBootstrap(f.actors));
    server = await startDevnetServer(f.chain.devnet, { port: 0 });
    store = await createStore({ inMemory: true });
    const plugins = mkdtempSync(join(tmpdir(), "plugins-"));
    writeFileSync(
      join(plugins, "audit.js"),
      'let seen = 0;\nmodule.exports = [\n  { kind: "post-action", name: "block-audit", run: (block) => block.transactions.length },\n  { kind: "event-handler", name: "certificate-audit", events: ["certificate.issued"], handle: () => { seen++; } },\n];\n',
    );
    mesh = await startMesh({
      services: ALL_SERVICES,
      store,
      chain: { ogmiosUrl: server.url, network: "devnet", devnet: f.chain.devnet },
      env: {
        DATA_DIR: mkdtempSync(join(tmpdir(), "whole-api-")),
        PLUGINS_DIR: plugins,
        PROXY_TX_HASH: f.oneShot.transaction.id,
        PROXY_OUTPUT_INDEX: String(f.oneShot.index),
        SERVICE_KEY_HASH: f.actors.service.paymentKeyHash,
        SERVICE_ADDRESS: f.actors.service.address,
      },
      now: () => f.chain.now(),
    });
  });
  after(async () => {
    await mesh?.stop();
    await store?.close();
    await server?.close();
    await f?.chain.devnet.close();
  });

  const get = (path: string) => http(`${mesh.api}${path}`);

  it("a plugin loaded from PLUGINS_DIR shows up in /admin/plugins and runs on every block", async () => {
    const cert = makeCertificate({
      hash: DataHash(randomBytes(32).toString("hex")),
      algorithm: "SHA-256",
      issuer: f.actors.alice.paymentKeyHash,
      metadata: "",
    });
    await f.mintState(f.actors.alice, [cert]);
    const detail = await pollUntil(async () => {
      const d = (await get("/admin/plugins/event-handlers/certificate-audit")).json as
        { language: string; itemMetrics: { totalItemsProcessed: number } } | undefined;
      return d && d.itemMetrics.totalItemsProcessed >= 1 ? d : undefined;
    }, "the folder plugin handled the certificate");
    expect(detail.language).to.equal("javascript");
    const post = (await get("/admin/plugins/post-actions")).json as { plugins: { name: string; executionCount: number }[] };
    expect(post.plugins.find((p) => p.name === "block-audit")?.executionCount).to.be.greaterThan(0);
  });

  it("answers malformed input on every implemented route with 4xx JSON, never a 5xx", async () => {
    const concrete = (r: RouteSpec) => r.path.replace(/\{[^}]+\}/g, "zz%20not-valid");
    const failures: string[] = [];
    let checked = 0;
    const check = async (what: string, res: Awaited<ReturnType<typeof http>>) => {
      checked += 1;
      const json = res.json as { error?: unknown } | undefined;
      if (
        res.status < 400 ||
        res.status >= 500 ||
        (typeof json?.error !== "string" && typeof (json as { status?: unknown })?.status !== "object")
      ) {
        failures.push(`${what} → ${res.status} ${res.text.slice(0, 160)}`);
      }
    };
    for (const r of (ROUTES as readonly RouteSpec[]).filter((x) => x.implemented)) {
      const url = `${mesh.api}${concrete(r)}`;
      if (r.method === "GET") {
        if (!r.path.includes("{")) continue; // nothing to malform (lists, statistics, registry)
        await check(`GET ${r.path}`, await http(url));
        continue;
      }
      const post = (body: string, type = "application/json") => http(url, { method: "POST", headers: { "content-type": type }, body });
      if (r.wholeBodyAs === undefined) await check(`POST ${r.path} (broken JSON)`, await post('{"address": '));
      await check(
        `POST ${r.path} (wrong types)`,
        await post(
          JSON.stringify({ address: 5, certificates: "x", transaction: 7, senderAddress: [], action: "NOPE", type: "nope", items: 3 }),
        ),
      );
      if (r.path !== "/library/deploy/proxy") await check(`POST ${r.path} (empty object)`, await post("{}"));
    }
    expect(failures, failures.join("\n")).to.deep.equal([]);
    expect(checked, "requests made").to.be.greaterThan(40);
  });
});
