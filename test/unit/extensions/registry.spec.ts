/**
 * The extension registry is the one list of extensions: every extension it names has its service among the
 * service names and a service file, and its routes lie under its own path and call its own service.
 */
import { expect } from "chai";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { isServiceName } from "../../../shared/mesh/service-names";
import { EXTENSION_ROUTES, EXTENSION_SERVICES, EXTENSIONS, REBUILDING_SERVICES } from "../../../shared/extensions/registry";
import { ROUTES } from "../../../shared/gateway/routes";

describe("extension registry", () => {
  it("names each extension once, with a known service that has a service file", () => {
    expect(new Set(EXTENSIONS.map((m) => m.id)).size).to.equal(EXTENSIONS.length);
    for (const m of EXTENSIONS) {
      expect(isServiceName(m.service), m.service).to.equal(true);
      expect(existsSync(join(__dirname, "..", "..", "..", "services", `${m.service}.service.ts`)), m.service).to.equal(true);
    }
    expect(EXTENSION_SERVICES).to.deep.equal({
      "connected-goods": "connected-goods",
      "fractionized-certificate": "fractionized",
      "tokenizable-certificate": "tokenizable",
    });
    expect(REBUILDING_SERVICES).to.deep.equal(["fractionized", "tokenizable"]);
  });

  it("gives each extension routes under /extension/<id>/ calling its service, all in the route table", () => {
    for (const m of EXTENSIONS)
      for (const r of m.routes) {
        expect(r.path.startsWith(`/extension/${m.id}/`), r.path).to.equal(true);
        expect(r.action.startsWith(`${m.service}.`), r.action).to.equal(true);
      }
    expect(ROUTES.filter((r) => r.path.startsWith("/extension/"))).to.deep.equal([...EXTENSION_ROUTES]);
  });
});
