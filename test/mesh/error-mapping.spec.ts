import { expect } from "chai";
import { Errors } from "moleculer";
import { toHttpErrorReply } from "../../shared/gateway/error-mapping";
import { MalformedJsonError, NotImplementedError, PayloadTooLargeError, RateLimitedError } from "../../shared/gateway/errors";

/** What an error looks like after crossing NATS when its class is unknown to the receiver. */
const rebuilt = (fields: Record<string, unknown>): Error => Object.assign(new Error(String(fields.message ?? "")), fields);

describe("mesh: error → HTTP mapping", function () {
  it("maps a ValidationError (422) to 400 naming the fields", () => {
    const err = new Errors.ValidationError("Parameters validation error!", "VALIDATION_ERROR", [
      { type: "required", field: "hash", message: "The 'hash' field is required.", actual: undefined },
      { type: "enumValue", field: "type", message: "The 'type' field value 'x' does not match any of the allowed values.", actual: "x" },
    ]);
    const reply = toHttpErrorReply(err);
    expect(reply.status).to.equal(400);
    expect(reply.body.error).to.equal("VALIDATION_ERROR");
    expect(reply.body.message).to.contain("'hash'").and.to.contain("'type'");
    expect(reply.body.fields).to.deep.equal(["hash", "type"]);
    expect(JSON.stringify(reply.body), "actual values are not echoed").to.not.contain('"actual"');
  });

  it("matches rebuilt (class-less) errors on type and code, not instanceof", () => {
    const reply = toHttpErrorReply(
      rebuilt({ name: "StateBusyError", message: "State is busy.", code: 409, type: "PENDING_TRANSACTION", data: { stateId: "s1" } }),
    );
    expect(reply).to.deep.include({ status: 409, body: { error: "PENDING_TRANSACTION", message: "State is busy.", stateId: "s1" } });
  });

  it("answers a type the status table does not list with its status's generic code (only listed codes reach a client)", () => {
    expect(toHttpErrorReply(rebuilt({ name: "NoActiveCredentialError", message: "none", code: 404 })).body.error).to.equal("NOT_FOUND");
    expect(toHttpErrorReply(rebuilt({ name: "Error", message: "none", code: 404, type: "ERR_SOMETHING" })).body.error).to.equal(
      "NOT_FOUND",
    );
    expect(toHttpErrorReply(rebuilt({ message: "odd", code: 418, type: "TEAPOT" })).body).to.deep.equal({
      error: "BAD_REQUEST",
      message: "odd",
    });
    expect(toHttpErrorReply(new Errors.MaxCallLevelError({ level: 100, nodeID: "n" })).body.error).to.equal("INTERNAL_ERROR");
  });

  it("maps Moleculer's own 5xx to the statuses the document lists: skipped → 504 TIMEOUT, disconnected → 503", () => {
    expect(toHttpErrorReply(new Errors.RequestSkippedError({ action: "a.b", nodeID: "n" }))).to.deep.include({
      status: 504,
      body: { error: "TIMEOUT", message: "The service did not answer in time." },
    });
    const disconnected = toHttpErrorReply(
      rebuilt({ name: "BrokerDisconnectedError", message: "disconnected", code: 502, type: "BAD_GATEWAY" }),
    );
    expect(disconnected.status).to.equal(503);
    expect(disconnected.body.error).to.equal("SERVICE_UNAVAILABLE");
    expect(disconnected.headers).to.deep.equal({ "Retry-After": "5" });
  });

  it("keeps a listed 5xx type's own status and code (502 FAUCET_SUBMIT_FAILED stays 502)", () => {
    expect(toHttpErrorReply(rebuilt({ message: "refused", type: "FAUCET_SUBMIT_FAILED" }))).to.deep.include({
      status: 502,
      body: { error: "FAUCET_SUBMIT_FAILED", message: "refused" },
    });
    expect(toHttpErrorReply(rebuilt({ message: "deploying", type: "PROTOCOL_DEPLOYING" })).status).to.equal(503);
  });

  it("maps any other 422 to 400", () => {
    expect(toHttpErrorReply(new Errors.MoleculerClientError("bad", 422, "BAD_SHAPE")).status).to.equal(400);
  });

  it("gives 429 a Retry-After header", () => {
    const reply = toHttpErrorReply(new RateLimitedError(12, 20));
    expect(reply.status).to.equal(429);
    expect(reply.headers).to.deep.equal({ "Retry-After": "12" });
  });

  it("maps broker failures: unavailable → 503, queue full → 503 busy, timeout → 504", () => {
    expect(toHttpErrorReply(new Errors.ServiceNotAvailableError({ action: "verifier.byHash" })).status).to.equal(503);
    expect(toHttpErrorReply(new Errors.ServiceNotFoundError({ action: "verifier.byHash" })).body.message).to.contain("verifier.byHash");
    expect(toHttpErrorReply(new Errors.QueueIsFullError({ action: "a.b", nodeID: "n" })).body.error).to.equal("SERVICE_BUSY");
    expect(toHttpErrorReply(new Errors.RequestTimeoutError({ action: "a.b", nodeID: "n" })).status).to.equal(504);
  });

  it("keeps the gateway's own errors", () => {
    expect(toHttpErrorReply(new PayloadTooLargeError(512 * 1024))).to.deep.include({
      status: 413,
      body: { error: "PAYLOAD_TOO_LARGE", message: "Request body exceeds the 512 KiB limit.", limitBytes: 524288 },
    });
    expect(toHttpErrorReply(new MalformedJsonError("Unexpected end")).body.error).to.equal("MALFORMED_JSON");
    const notImplemented = toHttpErrorReply(new NotImplementedError("GET", "/api/v1/verify/x", "verifier"));
    expect(notImplemented).to.deep.include({ status: 501, log: null });
    expect(notImplemented.body).to.deep.equal({
      error: "NOT_IMPLEMENTED",
      message: "GET /api/v1/verify/x is not implemented yet (the verifier service is not built).",
    });
  });

  it("never answers an empty 500, and hides internals of unknown failures", () => {
    for (const err of [new Error("db password=hunter2"), "a string", null, undefined, { code: "ECONNRESET" }, rebuilt({ code: 700 })]) {
      const reply = toHttpErrorReply(err);
      expect(reply.status).to.equal(500);
      expect(reply.body).to.deep.equal({ error: "INTERNAL_ERROR", message: "Internal server error." });
      expect(reply.log).to.equal("error");
    }
  });

  it("does not copy data into 5xx bodies", () => {
    const reply = toHttpErrorReply(new Errors.MoleculerServerError("Node down", 502, "CHAIN_UNAVAILABLE", { url: "ws://user:pw@x" }));
    expect(reply.body).to.deep.equal({ error: "CHAIN_UNAVAILABLE", message: "Node down" });
  });
});
