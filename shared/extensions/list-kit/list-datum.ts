/**
 * The datum shapes every list extension's list shares (onchain/extensions/sorted-list/layout.ts): the HEAD
 * `Constr 0 [next: Option<bytes>, config]`, a config starting `[service_validator_hash, allowed_inserters,
 * deployer, …]`, and a node `Constr 1 [key, next: Option<bytes>, …, status]` whose status has two constructors.
 * Each extension's codec adds its own fields.
 */
import { ProtocolError } from "../../protocol/errors";
import {
  bytes,
  constr,
  type Data,
  expectBytes,
  expectConstr,
  expectList,
  expectOptionBytes,
  list,
  optionBytes,
} from "../../protocol/plutus-data";

export interface BaseListConfig {
  /** the core state script whose UPDATE_STATE / MINT_STATE withdrawal must anchor each key (56 hex) */
  readonly serviceValidatorHash: string;
  /** key hashes that may insert; empty = anyone */
  readonly allowedInserters: readonly string[];
  /** key hash that signed the Init */
  readonly deployer: string;
}

export function encodeListConfig(c: BaseListConfig, own: readonly Data[] = []): Data {
  return constr(0, [bytes(c.serviceValidatorHash), list(c.allowedInserters.map(bytes)), bytes(c.deployer), ...own]);
}

/** The config's shared fields, and all its fields for the extension's own. @throws ProtocolError INVALID_DATUM / INVALID_FIELD */
export function decodeListConfig(d: Data, what: string, arity: number): { base: BaseListConfig; fields: readonly Data[] } {
  const { fields: f } = expectConstr(d, what, { index: 0, arity });
  return {
    base: {
      serviceValidatorHash: expectBytes(f[0], "serviceValidatorHash", 28),
      allowedInserters: expectList(f[1], "allowedInserters").map((x, i) => expectBytes(x, `allowedInserters[${i}]`, 28)),
      deployer: expectBytes(f[2], "deployer", 28),
    },
    fields: f,
  };
}

export function encodeListHead(next: string | undefined, config: Data): Data {
  return constr(0, [optionBytes(next), config]);
}

/**
 * A HEAD or a node of the extension `label` ("fractionized"): the node has `nodeArity` fields, the last its status
 * (constructor 0 or 1), which `node` gets with the fields. @throws ProtocolError INVALID_DATUM / INVALID_FIELD
 */
export function decodeListDatum<C, N>(
  d: Data,
  label: string,
  decodeConfig: (d: Data) => C,
  nodeArity: number,
  node: (f: readonly Data[], status: 0 | 1) => N,
): { readonly kind: "head"; readonly next: string | undefined; readonly config: C } | ({ readonly kind: "node" } & N) {
  const { index, fields: f } = expectConstr(d, `${label} datum`);
  if (index === 0) {
    expectConstr(d, `${label} HEAD`, { arity: 2 });
    return { kind: "head", next: expectOptionBytes(f[0], "next"), config: decodeConfig(f[1]!) };
  }
  if (index !== 1) throw new ProtocolError("INVALID_DATUM", `${label} datum: unknown constructor ${index}`, { index });
  expectConstr(d, `${label} node`, { arity: nodeArity });
  const { index: status } = expectConstr(f[nodeArity - 1]!, "status", { arity: 0 });
  if (status > 1) throw new ProtocolError("INVALID_FIELD", `status: unknown constructor ${status}`, { index: status });
  return { kind: "node", ...node(f, status as 0 | 1) };
}
