/**
 * `POST /extension/fractionized-certificate/build`: a body in (either form, request.ts), an outcome out — the
 * unsigned transaction with the list it belongs to, or a refusal — never a thrown error (the list kit's
 * build-answer.ts). Init and Insert are the list builds every list extension shares (list-kit/list-build.ts) with
 * the fractionized rule that a new node holds its total supply; a Claim is a payment plus the list's parts.
 * Everything the validator would reject is refused before building.
 */
import { enterpriseAddressOfKeyHash } from "../../csl/address";
import type { ListBuildAnswer, ListExtensionEnv } from "../list-kit/build-answer";
import { listBuildHandler } from "../list-kit/build-answer";
import { buildListInit, buildListInsert, buildNodeTransition } from "../list-kit/list-build";
import { FRACTIONIZED, refuseFractionized } from "./extension";
import { parseFractionizedRequest, type ClaimRequest } from "./request";
import type { FractionizedScripts } from "./scripts";
import { claimParts, initParts, insertParts } from "./transactions";

export type FractionizedEnv = ListExtensionEnv<FractionizedScripts>;
type FractionizedOutcome = ListBuildAnswer<"Init" | "Insert" | "Claim">;

/** Never throws: a refusal (FractionizedError, BuildRefusal) or an unexpected failure becomes an outcome. */
export const handleFractionizedBuild: (env: FractionizedEnv, body: Record<string, unknown>) => Promise<FractionizedOutcome> =
  listBuildHandler(FRACTIONIZED, parseFractionizedRequest, {
    init: (env: FractionizedEnv, address, initRef, config, terms, known) =>
      buildListInit(FRACTIONIZED, env, {
        address,
        initRef,
        config,
        terms,
        known,
        before: () => undefined,
        parts: (script, initUtxo, listConfig) => initParts(script, initUtxo, terms.key, listConfig, terms),
      }),
    insert: (env: FractionizedEnv, address, listRef, terms, known) =>
      buildListInsert(FRACTIONIZED, env, {
        address,
        listRef,
        terms,
        known,
        before: () => undefined,
        parts: (script, pred, sender, _own, perByte) => insertParts(script, pred, terms.key, sender, terms, perByte),
      }),
    own: buildClaim,
  });

function buildClaim(env: FractionizedEnv, req: ClaimRequest, known: { policyId: string | null }) {
  const { key, amount } = req;
  return buildNodeTransition(FRACTIONIZED, env, {
    action: "Claim",
    address: req.address,
    listRef: req.list,
    key,
    known,
    withHead: false,
    check(node, sender) {
      const claimer = req.claimer ?? sender;
      if (node.status === "TokensExhausted" || node.remainingAmount === 0n)
        refuseFractionized(
          "TOKENS_EXHAUSTED",
          `Every token of ${key} has been claimed (total ${node.totalAmount}); nothing is left to claim.`,
          {
            key,
            totalAmount: Number(node.totalAmount),
          },
        );
      if (amount > node.remainingAmount)
        refuseFractionized(
          "AMOUNT_OUT_OF_RANGE",
          `amount ${amount} is more than the ${node.remainingAmount} tokens of ${key} still claimable; claim at most ${node.remainingAmount}.`,
          { key, remainingAmount: Number(node.remainingAmount) },
        );
      if (node.claimants.length > 0 && !node.claimants.includes(claimer))
        refuseFractionized(
          "CLAIMER_NOT_LISTED",
          `The claimer ${claimer} is not among the claimants of ${key}; only its listed claimants may claim.`,
          {
            key,
            claimer,
          },
        );
      return {
        node,
        claimer,
        claimerAddress: claimer === sender ? req.address : enterpriseAddressOfKeyHash(claimer, env.issuance.networkId),
      };
    },
    parts: (script, live, c, perByte) =>
      claimParts(script, { utxo: live.node, datum: c.node }, c.claimer, c.claimerAddress, amount, perByte),
  });
}
