import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { expect } from "chai";
import { extensionFactDecoders, extensionListLayouts } from "../../../shared/extensions/registry";

const ROOT = join(__dirname, "..", "..", "..");

/** The modules a fresh process has loaded after requiring `file`, as paths relative to the repository. */
function modulesLoadedBy(file: string): string[] {
  const probe = `require(${JSON.stringify(join(ROOT, file))}); console.log(JSON.stringify(Object.keys(require.cache)));`;
  const out = execFileSync(process.execPath, ["--import", "tsx", "-e", probe], { cwd: ROOT, encoding: "utf8" });
  return (JSON.parse(out) as string[]).map((m) => m.slice(ROOT.length + 1));
}

describe("a gateway process stays light", () => {
  // the gateway reads the extension registry for its routes; the extensions' decoders and list layouts (CSL, the
  // compiled validators) are loaded only by the services that use them
  it("loading the gateway service loads neither CSL nor plu-ts nor an extension's codecs", () => {
    const loaded = modulesLoadedBy("services/gateway.service.ts");
    expect(loaded.some((m) => m.startsWith("shared/extensions/registry"))).to.equal(true);
    const heavy = loaded.filter((m) =>
      /cardano-serialization-lib|@harmoniclabs|shared\/csl\/|shared\/extensions\/[^/]+\/(datum|extension|goods-decoder)/.test(m),
    );
    expect(heavy).to.deep.equal([]);
  });

  it("the indexer still gets every extension's decoder and list layout, loaded when asked", () => {
    expect(extensionFactDecoders(0).length).to.equal(1);
    expect(extensionListLayouts(0).map((l) => l.name)).to.deep.equal(["fractionized", "tokenizable"]);
  });
});
