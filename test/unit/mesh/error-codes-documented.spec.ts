import { expect } from "chai";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { toHttpErrorReply } from "../../../shared/gateway/error-mapping";
import { httpStatusOfType, LISTED_ERROR_TYPES } from "../../../shared/gateway/http-status";
import { gatewayAnswers } from "../../../shared/gateway/openapi";
import { ROUTES, type RouteSpec } from "../../../shared/gateway/routes";

const ROOT = join(__dirname, "../../..");
const API_DOC = readFileSync(join(ROOT, "docs/api.md"), "utf8");
const documented = (code: string): boolean => API_DOC.includes(`\`${code}\``);

/** The code a client reads for an error of this type (the mapping renames a few: QUEUE_FULL → SERVICE_BUSY, …). */
const wireCodeOf = (type: string): string => toHttpErrorReply({ type, message: "m" }).body.error;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "devnet" ? [] : sourceFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/** Error types the code throws or refuses with, as literals: `new XError("TYPE"`, `super("TYPE"`, `refuse("TYPE"`, … */
function thrownTypes(): Map<string, string> {
  const found = new Map<string, string>();
  const thrower = /(?:new [A-Za-z]+Error|super|refuse|bad|webhookError|listError)\(\s*"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{4,})"/g;
  for (const file of [...sourceFiles(join(ROOT, "services")), ...sourceFiles(join(ROOT, "shared"))]) {
    for (const m of readFileSync(file, "utf8").matchAll(thrower)) if (!found.has(m[1]!)) found.set(m[1]!, file.slice(ROOT.length + 1));
  }
  return found;
}

describe("error codes: docs/api.md names every code the API can answer", () => {
  it("names every code the status table lets reach a client", () => {
    const missing = LISTED_ERROR_TYPES.filter((type) => {
      const status = httpStatusOfType(type)!;
      // 2xx outcomes of builds are no errors; 499 is answered to nobody (the client left)
      return status >= 400 && status !== 499 && !documented(wireCodeOf(type));
    }).map(wireCodeOf);
    expect(missing, "codes missing from docs/api.md (add them to its error code index)").to.deep.equal([]);
  });

  it("names every code the OpenAPI document declares on a route", () => {
    const declared = new Set<string>();
    for (const route of ROUTES as readonly RouteSpec[]) {
      for (const [, code] of gatewayAnswers(route)) declared.add(code);
      for (const code of [...(route.errors ?? []), ...(route.plainErrors ?? [])]) declared.add(code);
    }
    expect([...declared].filter((code) => !documented(code))).to.deep.equal([]);
  });

  it("names every code thrown in services/ and shared/ that the error mapping answers as itself", () => {
    const thrown = thrownTypes();
    expect(thrown.size, "the scan finds the thrown types").to.be.greaterThan(40);
    const missing = [...thrown]
      .filter(([type]) => {
        const status = httpStatusOfType(type);
        return status !== undefined && status >= 400 && status !== 499 && !documented(wireCodeOf(type));
      })
      .map(([type, file]) => `${type} (${file})`);
    expect(missing).to.deep.equal([]);
  });

  it("fails on a code that is not in docs/api.md", () => {
    expect(documented("PROTOCOL_DEPLOYING")).to.equal(true);
    expect(documented("NO_SUCH_CODE_ANYWHERE")).to.equal(false);
  });
});
