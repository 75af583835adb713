/** The validators this folder builds, in blueprint order. */
export const VALIDATOR_NAMES = [
  "proxy",
  "state",
  "library",
  // fractionized extension
  "fractionized",
  // tokenizable extension
  "tokenizable",
  "tokenizable_metadata",
  // connected-goods extension
  "connected_goods",
  "social_hub",
] as const;
export type ValidatorName = (typeof VALIDATOR_NAMES)[number];
