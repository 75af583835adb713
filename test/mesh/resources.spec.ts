import { expect } from "chai";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMeshResources } from "../../shared/mesh/resources";
import { http, testConfig } from "../../fixtures/mesh/helpers";

const tempDir = (): string => mkdtempSync(join(tmpdir(), "mesh-resources-"));

describe("mesh: shared resources (store, chain)", function () {
  it("opens nothing until a service asks", async () => {
    const dataDir = join(tempDir(), "data");
    const mesh = createMeshResources(testConfig({ DATA_DIR: dataDir }));
    await mesh.close();
    expect(existsSync(dataDir)).to.equal(false);
  });

  it("opens the embedded store once under DATA_DIR and releases it on close", async () => {
    const dataDir = tempDir();
    const config = testConfig({ DATA_DIR: dataDir });
    const first = createMeshResources(config);
    const [a, b] = await Promise.all([first.resources.store(), first.resources.store()]);
    expect(a).to.equal(b);
    expect(a.kind).to.equal("sqlite-files"); // the default embedded engine
    await a.collection<{ _id: string; n: number }>("probe").insertOne({ _id: "p1", n: 1 });
    expect(readdirSync(dataDir).length).to.be.greaterThan(0);
    await first.close();

    // The data directory lock is released: a second process-equivalent can open it and sees the data.
    const second = createMeshResources(config);
    const again = await second.resources.store();
    expect(await again.collection<{ _id: string; n: number }>("probe").findOne({ _id: "p1" })).to.deep.include({ n: 1 });
    await second.close();
  });

  it("starts the embedded devnet on first chain() and serves Ogmios on loopback", async () => {
    const mesh = createMeshResources(testConfig({ DATA_DIR: tempDir() }));
    try {
      const chain = await mesh.resources.chain();
      expect(chain.network).to.equal("devnet");
      expect(chain.devnet).to.not.equal(null);
      expect(chain.ogmiosUrl).to.match(/^ws:\/\/127\.0\.0\.1:\d+/);
      const health = await http(`${chain.ogmiosUrl.replace(/^ws/, "http").replace(/\/$/, "")}/health`);
      expect(health.status).to.equal(200);
      expect(await mesh.resources.chain()).to.equal(chain);
    } finally {
      await mesh.close();
    }
  });

  it("uses OGMIOS_URL as given, and refuses an own devnet in scale mode", async () => {
    const remote = createMeshResources(testConfig({ OGMIOS_URL: "ws://node:1337", NETWORK: "preprod" }));
    expect(await remote.resources.chain()).to.deep.equal({ ogmiosUrl: "ws://node:1337", network: "preprod", devnet: null });

    const scale = createMeshResources(testConfig({ TRANSPORTER: "nats://127.0.0.1:4222" }));
    let caught: unknown = null;
    try {
      await scale.resources.chain();
    } catch (err) {
      caught = err;
    }
    expect((caught as { type?: string } | null)?.type).to.equal("RESOURCE_UNAVAILABLE");
    expect((caught as Error).message).to.contain("OGMIOS_URL");
  });
});
