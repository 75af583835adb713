import { expect } from "chai";

describe("runtime", () => {
  it("runs the tests on Node.js 22 or newer (the node@24 devDependency provides it)", () => {
    const major = Number(process.versions.node.split(".")[0]);
    expect(major).to.be.at.least(22);
  });
});
