/**
 * `POST /extension/fractionized-certificate/build`: a body in (either form, request.ts), an outcome out — the
 * unsigned transaction with the list it belongs to, or a refusal (type + message) — never a thrown error.
 *
 * Init and Insert are the list builds every list extension shares (shared/sorted-list/extension-build.ts: the key
 * anchored as an ordinary certificate whose metadata carries the extension marker and the policy id, the list's
 * parts added to that transaction) with the fractionized rule that a new node holds its total supply (its
 * asset name is derived from the key, request.ts). Claims are a payment plus the list's parts. Everything the validator
 * would reject is refused before building.
 */
import { enterpriseAddressOfKeyHash } from "../../csl/address";
import type { OutRef } from "../../domain/out-ref";
import type { FractionizedHead, FractionizedNode } from "./datum";
import {
  answerListBuild,
  buildListInit,
  buildListInsert,
  buildListIssue,
  buildListPayment,
  builtListTransaction,
  liveOutputsOrBusy,
  nodeOrUnknown,
  recordedListScript,
  senderKeyHash,
  type BuiltListTransaction,
  type KnownPolicy,
  type ListBuildAnswer,
  type ListExtensionEnv,
  type ListExtensionKind,
} from "../list-kit/list-build";
import { type BaseListConfigRequest } from "../list-kit/request-fields";
import { type ListRef } from "../list-kit/list-source";
import { refuseFractionized } from "./errors";
import type { FractionizedScripts } from "./list-layout";
import { fractionizedLists, loadListForBuild, nodeDatumOf } from "./list-state";
import { parseFractionizedRequest, type FractionizedRequest, type IssueTerms } from "./request";
import { claimParts, initParts, insertParts } from "./transactions";

export type FractionizedEnv = ListExtensionEnv<FractionizedScripts>;

/** The extension marker certificates of a list carry in their metadata. */
export const FRACTIONIZED_MARKER = "fractionized-certificate";

export type BuiltFractionized = BuiltListTransaction<"Init" | "Insert" | "Claim">;
export type FractionizedOutcome = ListBuildAnswer<"Init" | "Insert" | "Claim">;

const FRACTIONIZED: ListExtensionKind<FractionizedHead, FractionizedNode> = {
  name: "fractionized",
  marker: FRACTIONIZED_MARKER,
  errorName: "FractionizedError",
  refuse: refuseFractionized,
  lists: fractionizedLists,
};

/** Never throws: a refusal (FractionizedError, BuildRefusal) or an unexpected failure becomes an outcome. */
export function handleFractionizedBuild(env: FractionizedEnv, body: Record<string, unknown>): Promise<FractionizedOutcome> {
  return answerListBuild(
    FRACTIONIZED.errorName,
    () => parseFractionizedRequest(body),
    (req, known) => buildRequest(env, req, known),
  );
}

function buildRequest(env: FractionizedEnv, req: FractionizedRequest, known: KnownPolicy): Promise<BuiltFractionized> {
  if (req.action === "Claim") return buildClaim(env, req.address, req.list, req.key, req.claimer, req.amount, known);
  return buildListIssue(env.lists, req, {
    init: (address, initRef, config, terms) => buildInit(env, address, initRef, config, terms, known),
    insert: (address, listRef, terms) => buildInsert(env, address, listRef, terms, known),
  });
}

function buildInit(
  env: FractionizedEnv,
  address: string,
  initRef: OutRef | undefined,
  config: BaseListConfigRequest | undefined,
  terms: IssueTerms,
  known: KnownPolicy,
): Promise<BuiltFractionized> {
  return buildListInit(FRACTIONIZED, env, {
    address,
    initRef,
    config,
    terms,
    known,
    before: () => undefined,
    parts: (script, initUtxo, listConfig) => initParts(script, initUtxo, terms.key, listConfig, terms),
  });
}

function buildInsert(
  env: FractionizedEnv,
  address: string,
  listRef: ListRef,
  terms: IssueTerms,
  known: KnownPolicy,
): Promise<BuiltFractionized> {
  return buildListInsert(FRACTIONIZED, env, {
    address,
    listRef,
    terms,
    known,
    before: () => undefined,
    parts: (script, pred, sender, _own, perByte) => insertParts(script, pred, terms.key, sender, terms, perByte),
  });
}

async function buildClaim(
  env: FractionizedEnv,
  address: string,
  listRef: ListRef,
  key: string,
  claimerGiven: string | undefined,
  amount: bigint,
  known: KnownPolicy,
): Promise<BuiltFractionized> {
  const sender = senderKeyHash(env.issuance, address);
  const claimer = claimerGiven ?? sender;
  const list = await loadListForBuild(env.lists, env.issuance.registry, listRef);
  const policyId = list.record.policyId;
  known.policyId = policyId;
  const entry = nodeOrUnknown(refuseFractionized, list, key);
  const node = nodeDatumOf(entry);
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
      { key, claimer },
    );
  const live = await liveOutputsOrBusy(env, [entry], policyId);

  const script = recordedListScript(refuseFractionized, env.scripts, list.record);
  const claimerAddress = claimer === sender ? address : enterpriseAddressOfKeyHash(claimer, env.issuance.networkId);
  const tx = await buildListPayment(
    env,
    address,
    (perByte) => claimParts(script, { utxo: live[0]!, datum: node }, claimer, claimerAddress, amount, perByte),
    `fractionized-claim:${policyId}`,
  );
  return builtListTransaction("Claim", tx, policyId, list.record.initRef, key, live[0]!);
}
