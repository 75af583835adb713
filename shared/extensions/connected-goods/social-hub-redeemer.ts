/** The social_hub spend redeemer: Update = Constr 0 [], Transfer{new_owner} = Constr 1 [B new_owner]. */
import { bytes, constr, type Data, expectBytes, expectConstr } from "../../protocol/plutus-data";
import { ProtocolError } from "../../protocol/errors";

export type HubSpendRedeemer = { readonly type: "Update" } | { readonly type: "Transfer"; readonly newOwner: string };

export function encodeHubSpendRedeemer(r: HubSpendRedeemer): Data {
  return r.type === "Update" ? constr(0) : constr(1, [bytes(r.newOwner)]);
}

/** @throws ProtocolError INVALID_REDEEMER / INVALID_FIELD */
export function decodeHubSpendRedeemer(d: Data): HubSpendRedeemer {
  const { index, fields } = expectConstr(d, "social_hub spend redeemer", { type: "INVALID_REDEEMER" });
  if (index === 0 && fields.length === 0) return { type: "Update" };
  if (index === 1 && fields.length === 1) return { type: "Transfer", newOwner: expectBytes(fields[0], "newOwner", 28) };
  throw new ProtocolError("INVALID_REDEEMER", `social_hub spend redeemer: unknown shape ${index}/${fields.length}`, { index });
}
