/**
 * The fractionized list's redeemer, the same for its mint and spend handlers (a spend is accepted only when the
 * list's mint in the same transaction carries an equal redeemer):
 * `Init{key}` = Constr 0 [key], `Insert{key}` = Constr 1 [key], `Claim{key, claimer, amount}` = Constr 2 [key, claimer, amount].
 */
import { bytes, constr, type Data, expectBytes, expectConstr, expectInt, int } from "../../protocol/plutus-data";
import { ProtocolError } from "../../protocol/errors";

export type FractionizedRedeemer =
  | { readonly action: "Init"; readonly key: string }
  | { readonly action: "Insert"; readonly key: string }
  | { readonly action: "Claim"; readonly key: string; readonly claimer: string; readonly amount: bigint };

export function encodeFractionizedRedeemer(r: FractionizedRedeemer): Data {
  switch (r.action) {
    case "Init":
      return constr(0, [bytes(r.key)]);
    case "Insert":
      return constr(1, [bytes(r.key)]);
    case "Claim":
      return constr(2, [bytes(r.key), bytes(r.claimer), int(r.amount)]);
  }
}

/** @throws ProtocolError INVALID_REDEEMER / INVALID_FIELD */
export function decodeFractionizedRedeemer(d: Data): FractionizedRedeemer {
  const { index, fields } = expectConstr(d, "fractionized redeemer", { type: "INVALID_REDEEMER" });
  if (index === 0 || index === 1) {
    expectConstr(d, "fractionized redeemer", { arity: 1, type: "INVALID_REDEEMER" });
    return { action: index === 0 ? "Init" : "Insert", key: expectBytes(fields[0], "key") };
  }
  if (index === 2) {
    expectConstr(d, "fractionized redeemer", { arity: 3, type: "INVALID_REDEEMER" });
    return {
      action: "Claim",
      key: expectBytes(fields[0], "key"),
      claimer: expectBytes(fields[1], "claimer", 28),
      amount: expectInt(fields[2], "amount"),
    };
  }
  throw new ProtocolError("INVALID_REDEEMER", `fractionized redeemer: unknown constructor ${index}`, { index });
}
