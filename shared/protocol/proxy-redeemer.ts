/** The proxy redeemer (docs/protocol.md#proxy-redeemer): ADMIN = Constr 0, USER = Constr 1. */
import { constr, type Data, expectConstr } from "./plutus-data";
import { ProtocolError } from "./errors";

export type ProxyRedeemer = "ADMIN" | "USER";

const INDEX: Record<ProxyRedeemer, number> = { ADMIN: 0, USER: 1 };

export function encodeProxyRedeemer(r: ProxyRedeemer): Data {
  return constr(INDEX[r]);
}

/** @throws ProtocolError INVALID_REDEEMER */
export function decodeProxyRedeemer(d: Data): ProxyRedeemer {
  const { index } = expectConstr(d, "proxy redeemer", { arity: 0, type: "INVALID_REDEEMER" });
  if (index === 0) return "ADMIN";
  if (index === 1) return "USER";
  throw new ProtocolError("INVALID_REDEEMER", `proxy redeemer: unknown constructor ${index}`, { index });
}
