/** How a Moleculer-style log call becomes a pino record: its facts kept, its secrets masked. */
import { expect } from "chai";
import { Writable } from "node:stream";
import pino from "pino";
import { asPinoArguments, logMethodTakingFacts, secretLogPaths } from "../../../shared/mesh/log-records";

function capturingLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(
        ...chunk
          .toString()
          .split("\n")
          .filter((l) => l !== ""),
      );
      done();
    },
  });
  const log = pino({ redact: { paths: secretLogPaths(), censor: "***" }, hooks: { logMethod: logMethodTakingFacts } }, sink);
  // as Moleculer's Pino logger calls it: the arguments as the code gave them
  const moleculerStyle = log as unknown as Record<"info" | "warn" | "error", (...args: unknown[]) => void>;
  return { log: moleculerStyle, records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe("log records: Moleculer's (message, facts) calls as pino records", () => {
  it("moves the facts before the message, merges several, turns an Error into err and appends other values to the message", () => {
    expect(asPinoArguments(["plain"])).to.deep.equal(["plain"]);
    expect(asPinoArguments(["calendar round failed", { message: "no funds" }])).to.deep.equal([
      { message: "no funds" },
      "calendar round failed",
    ]);
    expect(asPinoArguments(["two", { a: 1 }, { b: 2 }])).to.deep.equal([{ a: 1, b: 2 }, "two"]);
    const err = new Error("boom");
    expect(asPinoArguments(["failed", err])).to.deep.equal([{ err }, "failed"]);
    expect(asPinoArguments(["Health probe server error", "EADDRINUSE", 3])).to.deep.equal(["Health probe server error EADDRINUSE 3"]);
    expect(asPinoArguments([{ a: 1 }, "pino's own form"])).to.deep.equal([{ a: 1 }, "pino's own form"]);
  });

  it("keeps the facts in the written record (pino alone would drop them) and masks secret keys at the top and one level down", () => {
    const { log, records } = capturingLogger();
    log.warn("calendar round failed; the next round anchors the log's checkpoint", { message: "INSUFFICIENT_FUNDS" });
    log.info("Configuration", { config: { adminApiKey: "s3cret-admin-key-value", port: 3000 } });
    log.info("request", { apiKey: "top-level-key", headers: { authorization: "Bearer whm_abc", "x-api-key": "k" } });
    log.error("Shutdown failed", new Error("store closed twice"));
    const [failed, config, request, shutdown] = records();
    expect(failed).to.include({
      level: 40,
      msg: "calendar round failed; the next round anchors the log's checkpoint",
      message: "INSUFFICIENT_FUNDS",
    });
    expect(config!["config"]).to.deep.equal({ adminApiKey: "***", port: 3000 });
    expect(request).to.include({ apiKey: "***" });
    expect(request!["headers"]).to.deep.equal({ authorization: "***", "x-api-key": "***" });
    expect(shutdown!["err"]).to.include({ type: "Error", message: "store closed twice" });
  });
});
