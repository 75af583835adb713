/**
 * plu-ts 0.9.0 loses the utility types of struct-typed list elements and of terms passed through helpers
 * (docs/protocol.md#plu-ts-pitfalls, 5), and spelling the full types out makes `tsc` several times slower. Helpers therefore
 * take and return this alias; every rule is still exercised by a phase-2 test.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTerm = any;
