import { expect } from "chai";
import { checkAnswer, routeOf } from "../support/openapi-conformance";

/** The checker every API answer of the suite goes through: it must catch what is not in the document. */
describe("mesh: OpenAPI conformance checker", () => {
  const url = (path: string) => `http://127.0.0.1:1/api/v1${path}`;
  const json = "application/json; charset=utf-8";

  it("matches answers to their route, literal segments first", () => {
    expect(routeOf("GET", `/api/v1/scripts/datum/${"a".repeat(64)}`)?.path).to.equal("/scripts/datum/{datumHash}");
    expect(routeOf("HEAD", "/api/v1/extensions")?.path).to.equal("/extensions");
    expect(routeOf("GET", "/api/v1/no/such/route")).to.equal(undefined);
  });

  it("accepts a declared status whose body matches its schema", () => {
    const body = JSON.stringify({ transactionHash: "ab".repeat(32) });
    expect(checkAnswer("POST", url("/transaction/submit"), 200, json, body)).to.equal(undefined);
    const refused = JSON.stringify({ error: "INPUTS_IN_FLIGHT", message: "spent by a transaction in flight" });
    expect(checkAnswer("POST", url("/transaction/submit"), 409, json, refused)).to.equal(undefined);
  });

  it("reports an undeclared status, a body off its schema and an undeclared error code", () => {
    expect(checkAnswer("GET", url("/extensions"), 418, json, "{}")?.problem).to.match(/status 418 is not declared/);
    expect(checkAnswer("POST", url("/transaction/submit"), 200, json, JSON.stringify({ transactionHash: 42 }))?.problem).to.match(
      /does not match its schema/,
    );
    const unknownCode = JSON.stringify({ error: "SOMETHING_ELSE", message: "?" });
    expect(checkAnswer("POST", url("/transaction/submit"), 409, json, unknownCode)?.problem).to.match(/does not match its schema/);
    expect(checkAnswer("GET", url("/statistic/tx-fees"), 200, "text/plain", "12")?.problem).to.match(/content type text\/plain/);
  });
});
