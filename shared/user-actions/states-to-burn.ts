/**
 * Which of an owner's live states a burn action takes: INVALIDATE_STATE the one it names, OPT_OUT every state that
 * can be burned (a state kept as an oracle never can).
 */
import { DomainError } from "../domain/errors";
import type { StateInfo } from "../records/protocol-records";

/** @throws DomainError STATE_NOT_FOUND, STATE_IS_ORACLE (INVALIDATE_STATE), NO_ACTIVE_STATE (OPT_OUT) */
export function statesToBurn(
  action: "INVALIDATE_STATE" | "OPT_OUT",
  stateId: string | undefined,
  ownStates: readonly StateInfo[],
): StateInfo[] {
  if (action === "INVALIDATE_STATE") {
    const target = ownStates.find((s) => s.stateId === stateId);
    if (!target) throw new DomainError("STATE_NOT_FOUND", "State with the provided ID does not exist (or is not yours).");
    if (target.keepAsOracle) throw new DomainError("STATE_IS_ORACLE", "This state is kept as an oracle and cannot be burned.");
    return [target];
  }
  const burnable = ownStates.filter((s) => !s.keepAsOracle);
  if (burnable.length === 0) throw new DomainError("NO_ACTIVE_STATE", "The address has no active state to opt out of.");
  return burnable;
}
