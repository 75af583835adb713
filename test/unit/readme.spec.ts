import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { formatEnvTable } from "../../shared/config/config";

describe("README", () => {
  const readme = readFileSync(join(__dirname, "..", "..", "README.md"), "utf8");

  it("shows the two set-up commands", () => {
    expect(readme).to.contain("npm ci && npm start");
    expect(readme).to.contain("npm ci && npm test");
  });

  it("documents every environment variable exactly as the code reads it", () => {
    expect(readme).to.contain(formatEnvTable());
  });
});
