/** The validators this folder builds, in blueprint order. */
export const VALIDATOR_NAMES = ["proxy", "state", "library"] as const;
export type ValidatorName = (typeof VALIDATOR_NAMES)[number];
