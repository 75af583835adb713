// The Plutus cost models scalus 0.17.0 applies (its built-in mainnet parameters), as the devnet advertises them. The
// numbers are generated into scalus-cost-models.json by test/devnet/support/scalus-cost-models.ts; do not edit them
// by hand: regenerate and let test/devnet/protocol-parameters.spec.ts confirm the match.
import models from "./scalus-cost-models.json";

export const PLUTUS_V1_COST_MODEL: readonly number[] = models.v1;
export const PLUTUS_V2_COST_MODEL: readonly number[] = models.v2;
export const PLUTUS_V3_COST_MODEL: readonly number[] = models.v3;
