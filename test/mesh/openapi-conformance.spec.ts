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
    expect(checkAnswer("POST", url("/transaction/submit"), 409, json, unknownCode)?.problem).to.match(
      /error code "SOMETHING_ELSE" is not declared for 409 \(declared: .*INPUTS_IN_FLIGHT/,
    );
    expect(checkAnswer("GET", url("/statistic/tx-fees"), 200, "text/plain", "12")?.problem).to.match(/content type text\/plain/);
  });

  it("checks the codes of server errors too, and an error body without a code", () => {
    const busy = JSON.stringify({ error: "SERVICE_BUSY", message: "busy" });
    expect(checkAnswer("GET", url("/extensions"), 503, json, busy)).to.equal(undefined);
    const leaked = JSON.stringify({ error: "MAX_CALL_LEVEL", message: "level" });
    expect(checkAnswer("GET", url("/extensions"), 500, json, leaked)?.problem).to.match(
      /error code "MAX_CALL_LEVEL" is not declared for 500/,
    );
    expect(checkAnswer("GET", url("/extensions"), 500, json, JSON.stringify({ message: "?" }))?.problem).to.match(/error code undefined/);
  });

  it("accepts a 304 only on a route that declares it, and only with the ETag it confirms", () => {
    const lookup = url(`/scripts/${"a".repeat(56)}`);
    expect(checkAnswer("GET", lookup, 304, null, "", '"l1.abc"')).to.equal(undefined);
    expect(checkAnswer("GET", lookup, 304, null, "", null)?.problem).to.match(/304 without an ETag/);
    expect(checkAnswer("GET", url("/extensions"), 304, null, "", null)?.problem).to.match(/status 304 is not declared/);
  });

  it("declares on every operation what Node's parser and the gateway answer before any route: 408, 431, and 415 on bodies", () => {
    const slow = JSON.stringify({ error: "REQUEST_TIMEOUT", message: "slow" });
    const headers = JSON.stringify({ error: "HEADERS_TOO_LARGE", message: "big" });
    expect(checkAnswer("GET", url("/extensions"), 408, json, slow)).to.equal(undefined);
    expect(checkAnswer("GET", url("/extensions"), 431, json, headers)).to.equal(undefined);
    for (const code of ["UNSUPPORTED_MEDIA_TYPE", "UNSUPPORTED_CONTENT_ENCODING", "UNSUPPORTED_CHARSET"]) {
      const body = JSON.stringify({ error: code, message: "no" });
      expect(checkAnswer("POST", url("/transaction/submit"), 415, json, body), code).to.equal(undefined);
      expect(checkAnswer("DELETE", url(`/webhooks/${"a".repeat(32)}`), 415, json, body), code).to.equal(undefined);
    }
  });
});
