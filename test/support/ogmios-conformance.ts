// Mocha root-hook plugin: every message any devnet server in the test process sends is validated with ajv 8 against
// the official Ogmios v6.14 JSON schema (vendored under test/support/ogmios-schema, MPL-2.0).
// A root afterAll fails the run if any message did not conform, printing the first failures.
//
// Schema adjustments (all documented quirks of loading these files with ajv, none loosening a result shape):
// - validateSchema:false — the files' `$schema` URL has no trailing '#';
// - `Value.propertyNames` (^[0-9a-f]{56}$) is dropped — under ajv it also rejects the required `ada` key;
// - `RpcError.error.required` is ["code","string"] upstream (a typo: no reply can satisfy it with
//   additionalProperties:false); we require ["code","message"], and allow the `method` the devnet mirrors on
//   generic errors (the Ogmios client pairs replies by method and would hang without it).
// Messages of the devnet's own test-control methods (`devnet/*`) are not Ogmios messages and are not checked.
import Ajv, { type ValidateFunction } from "ajv";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { setOutgoingMessageObserver } from "../../shared/devnet/message-observer";

export const OGMIOS_SCHEMA_DIR = resolve(__dirname, "ogmios-schema");

interface Failure {
  method: string | undefined;
  schema: string;
  errors: string;
  message: string;
}

let validators: Map<string, ValidateFunction> | undefined;

function loadSchemas(): Map<string, ValidateFunction> {
  if (validators) return validators;
  const ogmiosPath = resolve(OGMIOS_SCHEMA_DIR, "ogmios.json");
  const cardanoPath = resolve(OGMIOS_SCHEMA_DIR, "cardano.json");
  if (!existsSync(ogmiosPath) || !existsSync(cardanoPath)) {
    throw new Error(`Ogmios schema not found in ${OGMIOS_SCHEMA_DIR}`);
  }
  const ogmios = JSON.parse(readFileSync(ogmiosPath, "utf8")) as { properties: Record<string, Record<string, unknown>> };
  const cardano = JSON.parse(readFileSync(cardanoPath, "utf8")) as { definitions: Record<string, Record<string, unknown>> };
  delete cardano.definitions.Value?.propertyNames;
  const rpcError = ogmios.properties.RpcError as { properties: Record<string, { required?: string[] }> & { method?: unknown } };
  if (rpcError.properties.error) rpcError.properties.error.required = ["code", "message"];
  rpcError.properties.method = { type: "string" };
  const ajv = new Ajv({ strict: false, validateSchema: false, validateFormats: false, allErrors: false });
  ajv.addSchema(cardano);
  ajv.addSchema(ogmios);
  validators = new Map();
  for (const name of Object.keys(ogmios.properties)) {
    validators.set(name, ajv.getSchema(`ogmios.json#/properties/${name}`)!);
  }
  return validators;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The schema (ogmios.json property) a reply to `method` must satisfy, or undefined if Ogmios has no such method. */
export function responseSchemaName(method: string): string | undefined {
  const [family, query] = method.split("/");
  const name =
    query !== undefined && (family === "queryLedgerState" || family === "queryNetwork")
      ? `${capitalise(family)}${capitalise(query)}Response`
      : `${capitalise(method)}Response`;
  return loadSchemas().has(name) ? name : undefined;
}

/**
 * Schema-checks one outgoing message. Returns undefined when it conforms (or is a devnet/* test-control reply),
 * else a description of the failure.
 */
export function checkOgmiosMessage(text: string, method: string | undefined): Failure | undefined {
  if (method?.startsWith("devnet/")) return undefined;
  const schemas = loadSchemas();
  let message: { error?: { code?: unknown } };
  try {
    message = JSON.parse(text) as { error?: { code?: unknown } };
  } catch {
    return { method, schema: "JSON", errors: "not JSON", message: text.slice(0, 300) };
  }
  const code = message.error?.code;
  const isGenericRpcError = typeof code === "number" && code >= -32700 && code <= -32000;
  const candidates = [method === undefined ? undefined : responseSchemaName(method), isGenericRpcError ? "RpcError" : undefined].filter(
    (n): n is string => n !== undefined,
  );
  if (candidates.length === 0) {
    return { method, schema: "(none)", errors: `no Ogmios response schema for method '${method}'`, message: text.slice(0, 300) };
  }
  const errors: string[] = [];
  for (const name of candidates) {
    const validate = schemas.get(name)!;
    if (validate(message)) return undefined;
    errors.push(`${name}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  }
  return { method, schema: candidates.join(" | "), errors: errors.join("; ").slice(0, 1500), message: text.slice(0, 600) };
}

const failures: Failure[] = [];
let checked = 0;

setOutgoingMessageObserver((text, method) => {
  checked += 1;
  try {
    const failure = checkOgmiosMessage(text, method);
    if (failure) failures.push(failure);
  } catch (err) {
    failures.push({ method, schema: "(load)", errors: String(err), message: text.slice(0, 300) });
  }
});

export const mochaHooks = {
  afterAll(): void {
    if (checked === 0) return;
    if (failures.length > 0) {
      const first = failures
        .slice(0, 5)
        .map((f, i) => `  ${i + 1}. method=${f.method} schema=${f.schema}\n     errors: ${f.errors}\n     message: ${f.message}`)
        .join("\n");
      throw new Error(
        `Ogmios schema conformance: ${failures.length} of ${checked} devnet messages do not match the v6.14 schema:\n${first}`,
      );
    }
    process.stdout.write(`  Ogmios schema conformance: ${checked} devnet messages checked, 0 failures\n`);
  },
};
