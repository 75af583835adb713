/** The proxy pointer datum (docs/protocol.md#proxy-datum): `Constr 0 [script_pointer, script_owner]`. */
import { bytes, constr, type Data, expectBytes, expectConstr } from "./plutus-data";

export interface ProxyDatum {
  /** hash of the current state script (56 hex) */
  readonly scriptPointer: string;
  /** payment key hash of the service that may upgrade the pointer (56 hex) */
  readonly scriptOwner: string;
}

export function encodeProxyDatum(d: ProxyDatum): Data {
  return constr(0, [bytes(d.scriptPointer), bytes(d.scriptOwner)]);
}

/** @throws ProtocolError INVALID_DATUM / INVALID_FIELD */
export function decodeProxyDatum(d: Data): ProxyDatum {
  const { fields } = expectConstr(d, "proxy datum", { index: 0, arity: 2 });
  return { scriptPointer: expectBytes(fields[0], "scriptPointer", 28), scriptOwner: expectBytes(fields[1], "scriptOwner", 28) };
}
