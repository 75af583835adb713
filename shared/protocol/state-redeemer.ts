/**
 * The state script's withdraw redeemer (docs/protocol.md#state-redeemer): `Constr 0 [purpose, certificates]`,
 * purpose `Constr k []` with BURN_BOOTSTRAP=0, BURN_STATE=1, UPDATE_STATE=2, MINT_STATE=3, MINT_BOOTSTRAP=4.
 */
import { constr, type Data, expectConstr, expectList, list } from "./plutus-data";
import { decodeCertificate, encodeCertificate, type OnchainCertificate } from "./certificate";
import { ProtocolError } from "./errors";

export const STATE_PURPOSES = ["BURN_BOOTSTRAP", "BURN_STATE", "UPDATE_STATE", "MINT_STATE", "MINT_BOOTSTRAP"] as const;
export type StatePurpose = (typeof STATE_PURPOSES)[number];

export interface StateRedeemer {
  readonly purpose: StatePurpose;
  readonly certificates: readonly OnchainCertificate[];
}

export function encodeStateRedeemer(r: StateRedeemer): Data {
  return constr(0, [constr(STATE_PURPOSES.indexOf(r.purpose)), list(r.certificates.map(encodeCertificate))]);
}

/** @throws ProtocolError INVALID_REDEEMER / INVALID_FIELD */
export function decodeStateRedeemer(d: Data): StateRedeemer {
  const { fields } = expectConstr(d, "state redeemer", { index: 0, arity: 2, type: "INVALID_REDEEMER" });
  const { index } = expectConstr(fields[0]!, "state purpose", { arity: 0, type: "INVALID_REDEEMER" });
  const purpose = STATE_PURPOSES[index];
  if (purpose === undefined) throw new ProtocolError("INVALID_REDEEMER", `state purpose: unknown constructor ${index}`, { index });
  return { purpose, certificates: expectList(fields[1], "certificates").map(decodeCertificate) };
}
