/**
 * The tokenizable list's redeemer, the same for its mint and spend handlers (a spend is accepted only when the
 * list's mint in the same transaction carries an equal redeemer):
 * `Init{key}` = Constr 0 [key], `Insert{key}` = Constr 1 [key], `Redeem{key}` = Constr 2 [key].
 */
import { bytes, constr, type Data, expectBytes, expectConstr } from "../../protocol/plutus-data";
import { ProtocolError } from "../../protocol/errors";

type TokenizableAction = "Init" | "Insert" | "Redeem";

export interface TokenizableRedeemer {
  readonly action: TokenizableAction;
  readonly key: string;
}

const ACTIONS: readonly TokenizableAction[] = ["Init", "Insert", "Redeem"];

export function encodeTokenizableRedeemer(r: TokenizableRedeemer): Data {
  return constr(ACTIONS.indexOf(r.action), [bytes(r.key)]);
}

/** @throws ProtocolError INVALID_REDEEMER / INVALID_FIELD */
export function decodeTokenizableRedeemer(d: Data): TokenizableRedeemer {
  const { index, fields } = expectConstr(d, "tokenizable redeemer", { type: "INVALID_REDEEMER" });
  const action = ACTIONS[index];
  if (action === undefined) throw new ProtocolError("INVALID_REDEEMER", `tokenizable redeemer: unknown constructor ${index}`, { index });
  expectConstr(d, "tokenizable redeemer", { arity: 1, type: "INVALID_REDEEMER" });
  return { action, key: expectBytes(fields[0], "key") };
}
