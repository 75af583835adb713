// Helpers shared by the store tests.
import { expect } from "chai";
import type { StoreError, StoreErrorType } from "../../shared/store";

/** Awaits `action` and returns what it rejected with; fails the test when it resolves. */
export async function rejectionOf(action: () => Promise<unknown>): Promise<StoreError> {
  let outcome: unknown;
  try {
    outcome = await action();
  } catch (err) {
    return err as StoreError;
  }
  return expect.fail(`expected a rejection, got ${JSON.stringify(outcome)}`);
}

/** Asserts `action` rejects with a StoreError of `type` and returns it for further checks. */
export async function expectStoreError(action: () => Promise<unknown>, type: StoreErrorType): Promise<StoreError> {
  const err = await rejectionOf(action);
  expect(err, String(err)).to.have.property("type", type);
  return err;
}
