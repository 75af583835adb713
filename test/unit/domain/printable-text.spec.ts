import { expect } from "chai";
import { isPrintable, unprintableInJson, unprintableInMetadata, unprintableProblem } from "../../../shared/domain/printable-text";

describe("printable text", () => {
  it("accepts letters of any script, emoji (surrogate pairs) and spaces", () => {
    for (const text of ["", "SHA-256", "Müller · 東京", "shoe 👟", "a b", "\u00a0non-breaking", "\u2028"]) {
      expect(isPrintable(text), JSON.stringify(text)).to.equal(true);
    }
  });

  it("refuses every C0 control (tab and line breaks too), DEL and every C1 control, naming it and where", () => {
    for (let unit = 0; unit <= 0x1f; unit++) expect(isPrintable(`a${String.fromCharCode(unit)}`), `U+${unit}`).to.equal(false);
    for (let unit = 0x7f; unit <= 0x9f; unit++) expect(isPrintable(String.fromCharCode(unit)), `U+${unit}`).to.equal(false);
    expect(unprintableProblem("ab\u001b[0m")).to.equal("holds the control character U+001B at character 3");
    expect(unprintableProblem("\u0085")).to.equal("holds the control character U+0085 at character 1");
  });

  it("refuses a lone surrogate, high or low, but not a pair", () => {
    expect(unprintableProblem("x\ud800")).to.equal("holds a lone surrogate U+D800 at character 2");
    expect(unprintableProblem("\udc00x")).to.equal("holds a lone surrogate U+DC00 at character 1");
    expect(unprintableProblem("\ud800\ud800\udc00")).to.match(/U\+D800 at character 1/);
    expect(unprintableProblem("\ud83d\udc5f")).to.equal(undefined);
  });

  it("finds the first unprintable key or string value of a JSON value, by its path", () => {
    expect(unprintableInJson({ a: "ok", b: [1, "x", { c: "\u0007" }] }, "metadata")).to.deep.equal([
      "metadata.b[2].c",
      "holds the control character U+0007 at character 1",
    ]);
    expect(unprintableInJson({ "k\u0000": 1 }, "m")).to.deep.equal([
      "m",
      "has a key that holds the control character U+0000 at character 2",
    ]);
    expect(unprintableInJson({ a: 1, b: null, c: true, d: ["fine"] }, "m")).to.equal(undefined);
  });

  it("judges JSON metadata by its keys and values, other metadata as a whole", () => {
    expect(unprintableInMetadata('{\n\t"name": "Ada"\r\n}', "metadata")).to.equal(undefined);
    expect(unprintableInMetadata('{"name": "Ada\\u0000"}', "metadata")).to.equal(
      "metadata.name holds the control character U+0000 at character 4",
    );
    expect(unprintableInMetadata('{"name": "half \\ud800"}', "metadata")).to.match(/^metadata\.name holds a lone surrogate/);
    expect(unprintableInMetadata("line one\nline two", "metadata")).to.equal("metadata holds the control character U+000A at character 9");
    expect(unprintableInMetadata("", "metadata")).to.equal(undefined);
  });
});
