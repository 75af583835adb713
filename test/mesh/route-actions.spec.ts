import { expect } from "chai";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServiceBroker, type ActionSchema } from "moleculer";
import { defineRouteActions } from "../../shared/gateway/route-actions";
import { ROUTES, serviceOfAction } from "../../shared/gateway/routes";
import { isServiceName, SERVICE_NAMES } from "../../shared/mesh/service-names";
import { createMeshResources } from "../../shared/mesh/resources";
import { loadServices, serviceFile } from "../../shared/mesh/service-loader";
import { FakeClock, testConfig } from "../../fixtures/mesh/helpers";

const SERVICES_DIR = join(__dirname, "..", "..", "services");

// Compile-time checks (tsc runs before mocha in `npm test`): the route table drives the service's action keys.
// @ts-expect-error the gateway serves implemented routes `openapi` and `extensions`; leaving them out must not compile
defineRouteActions("gateway", { openapi: { handler: () => ({}) } });
// @ts-expect-error a key no route targets (a typo) must not compile
defineRouteActions("verifier", { byHsh: { handler: () => [] } });
// @ts-expect-error an implemented route's action (tokenizable.metadataScript) left out must not compile
defineRouteActions("tokenizable", { build: { handler: () => ({}) }, status: { handler: () => ({}) } });

describe("mesh: route table ↔ services", function () {
  it("names only known services and has no duplicate route", () => {
    const keys = new Set<string>();
    for (const route of ROUTES) {
      expect(isServiceName(serviceOfAction(route.action)), route.action).to.equal(true);
      expect(route.path, route.action).to.match(/^\/[a-z0-9\-./{}A-Z_]*$/);
      const key = `${route.method} ${route.path}`;
      expect(keys.has(key), key).to.equal(false);
      keys.add(key);
    }
  });

  it("declares every implemented route's action, published, once all built services are loaded", async () => {
    const clock = new FakeClock();
    const config = testConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), "route-actions-")) });
    const mesh = createMeshResources(config);
    const deps = { config, now: clock.now, resources: mesh.resources };
    const loaded = loadServices(null, deps, SERVICES_DIR);
    expect(loaded.loaded).to.include("gateway");
    expect([...loaded.loaded, ...loaded.notBuilt].sort()).to.deep.equal([...SERVICE_NAMES].sort());

    const broker = new ServiceBroker({ logger: false, skipProcessEventRegistration: true });
    for (const schema of loaded.schemas) broker.createService(schema);
    for (const route of ROUTES.filter((r) => r.implemented)) {
      const [service, action] = [serviceOfAction(route.action), route.action.slice(route.action.indexOf(".") + 1)];
      const svc = broker.getLocalService(service) as unknown as { schema: { actions?: Record<string, ActionSchema> } } | undefined;
      expect(svc, `service ${service} of ${route.method} ${route.path} is built`).to.not.equal(undefined);
      const schema = svc!.schema.actions?.[action];
      expect(schema, `${route.action} is declared`).to.not.equal(undefined);
      expect(schema!.visibility, `${route.action} is published`).to.equal("published");
    }
    await mesh.close();
  });

  it("marks a route implemented only when its service file exists", () => {
    for (const route of ROUTES.filter((r) => r.implemented)) {
      const service = serviceOfAction(route.action);
      expect(isServiceName(service) && serviceFile(SERVICES_DIR, service), `services/${service}.service.ts`).to.not.equal(null);
    }
  });

  it("fails loudly when SERVICES names a service that is not built", () => {
    const emptyDir = mkdtempSync(join(tmpdir(), "no-services-"));
    let caught: unknown = null;
    try {
      const config = testConfig();
      loadServices(["verifier"], { config, now: Date.now, resources: createMeshResources(config).resources }, emptyDir);
    } catch (err) {
      caught = err;
    }
    expect((caught as { type?: string } | null)?.type).to.equal("SERVICE_LOAD_FAILED");
  });
});
