/**
 * `POST /extension/tokenizable-certificate/build`: a body in (either form, request.ts), an outcome out — the
 * unsigned transaction with the list it belongs to, or a refusal (type + message) — never a thrown error.
 *
 * Init and Insert are the list builds every list extension shares (shared/sorted-list/extension-build.ts: the key
 * anchored as an ordinary certificate whose metadata carries the extension marker and the policy id, the list's
 * parts added to that transaction) with the tokenizable rules: the owner, the CIP-68 metadata script and the
 * metadata's size (the asset name is derived from the key, request.ts). A Redeem is a payment by the owner plus the list's parts; in CIP-68 mode
 * its reference token carries the certificate's metadata (metadata.ts). Everything the validator would reject is
 * refused before building.
 */
import type { OutRef } from "../../domain/out-ref";
import { keyHashOfAddress } from "../../issuance";
import type { TokenizableHead, TokenizableNode } from "./datum";
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
  type BuiltListTransaction,
  type KnownPolicy,
  type ListBuildAnswer,
  type ListExtensionEnv,
  type ListExtensionKind,
} from "../list-kit/list-build";
import { type ListRef } from "../list-kit/list-source";
import { refuseTokenizable } from "./errors";
import type { TokenizableScripts } from "./list-layout";
import { loadListForBuild, nodeDatumOf, tokenizableLists } from "./list-state";
import { checkMetadataFits, cip68MetadataOf } from "./metadata";
import { parseTokenizableRequest, type IssueTerms, type ListConfigRequest, type TokenizableRequest } from "./request";
import { initParts, insertParts, redeemParts } from "./transactions";

export interface TokenizableEnv extends ListExtensionEnv<TokenizableScripts> {
  /** the metadata anchored with a key by a transaction (JSON text, "" when none is known) */
  certificateMetadata(key: string, txHash: string | undefined): Promise<string>;
}

/** The extension marker certificates of a list carry in their metadata. */
export const TOKENIZABLE_MARKER = "tokenizable-certificate";

export type BuiltTokenizable = BuiltListTransaction<"Init" | "Insert" | "Redeem">;
export type TokenizableOutcome = ListBuildAnswer<"Init" | "Insert" | "Redeem">;

const TOKENIZABLE: ListExtensionKind<TokenizableHead, TokenizableNode> = {
  name: "tokenizable",
  marker: TOKENIZABLE_MARKER,
  errorName: "TokenizableError",
  refuse: refuseTokenizable,
  lists: tokenizableLists,
};

/** Never throws: a refusal (TokenizableError, BuildRefusal) or an unexpected failure becomes an outcome. */
export function handleTokenizableBuild(env: TokenizableEnv, body: Record<string, unknown>): Promise<TokenizableOutcome> {
  return answerListBuild(
    TOKENIZABLE.errorName,
    () => parseTokenizableRequest(body),
    (req, known) => buildRequest(env, req, known),
  );
}

function buildRequest(env: TokenizableEnv, req: TokenizableRequest, known: KnownPolicy): Promise<BuiltTokenizable> {
  if (req.action === "Redeem") return buildRedeem(env, req.address, req.list, req.key, known);
  return buildListIssue(env.lists, req, {
    init: (address, initRef, config, terms) => buildInit(env, address, initRef, config, terms, known),
    insert: (address, listRef, terms) => buildInsert(env, address, listRef, terms, known),
  });
}

function ownerOf(env: TokenizableEnv, terms: IssueTerms): string {
  return "keyHash" in terms.owner ? terms.owner.keyHash : keyHashOfAddress(terms.owner.address, env.issuance.networkId, "ownerAddress");
}

/** The metadata bound of a CIP-68 list, checked before building. */
function checkTerms(terms: IssueTerms, cip68: boolean): void {
  if (cip68) checkMetadataFits(cip68MetadataOf(terms.key, terms.metadata));
}

function buildInit(
  env: TokenizableEnv,
  address: string,
  initRef: OutRef | undefined,
  config: ListConfigRequest | undefined,
  terms: IssueTerms,
  known: KnownPolicy,
): Promise<BuiltTokenizable> {
  const cip68 = config?.cip68ScriptHash;
  return buildListInit(TOKENIZABLE, env, {
    address,
    initRef,
    config,
    terms,
    known,
    before: () => {
      const owner = ownerOf(env, terms);
      if (cip68 !== undefined && cip68 !== env.scripts.metadata.hash)
        refuseTokenizable(
          "INVALID_FIELD",
          `config.cip68ScriptAddress ${cip68} is not this service's CIP-68 metadata script; use ${env.scripts.metadata.hash} (GET /extension/tokenizable-certificate/metadata-script) or leave it empty for plain tokens.`,
          { field: "config.cip68ScriptAddress", scriptHash: env.scripts.metadata.hash },
        );
      checkTerms(terms, cip68 !== undefined);
      return owner;
    },
    parts: (script, initUtxo, base, owner) =>
      initParts(script, initUtxo, terms.key, { ...base, cip68ScriptHash: cip68 }, { owner, assetName: terms.assetName }),
  });
}

function buildInsert(
  env: TokenizableEnv,
  address: string,
  listRef: ListRef,
  terms: IssueTerms,
  known: KnownPolicy,
): Promise<BuiltTokenizable> {
  return buildListInsert(TOKENIZABLE, env, {
    address,
    listRef,
    terms,
    known,
    before: () => ownerOf(env, terms),
    check: (list) => checkTerms(terms, list.head.config.cip68ScriptHash !== undefined),
    parts: (script, pred, sender, owner, perByte) =>
      insertParts(script, pred, terms.key, sender, { owner, assetName: terms.assetName }, perByte),
  });
}

async function buildRedeem(
  env: TokenizableEnv,
  address: string,
  listRef: ListRef,
  key: string,
  known: KnownPolicy,
): Promise<BuiltTokenizable> {
  const sender = keyHashOfAddress(address, env.issuance.networkId, "senderAddress");
  const list = await loadListForBuild(env.lists, env.issuance.registry, listRef);
  const policyId = list.record.policyId;
  known.policyId = policyId;
  const entry = nodeOrUnknown(refuseTokenizable, list, key);
  const node = nodeDatumOf(entry);
  if (node.status === "Redeemed")
    refuseTokenizable("ALREADY_REDEEMED", `The certificate ${key} was redeemed already; its token can be redeemed only once.`, {
      policyId,
      key,
    });
  if (node.owner !== sender)
    refuseTokenizable(
      "NOT_OWNER",
      `Only the owner (key ${node.owner}) may redeem ${key}; ${address} has the key ${sender}. Redeem from the owner's wallet.`,
      { policyId, key, owner: node.owner },
    );
  const config = list.head.config;
  const metadata =
    config.cip68ScriptHash === undefined
      ? undefined
      : { script: env.scripts.metadata, datum: cip68MetadataOf(key, await env.certificateMetadata(key, entry.origin?.txHash)) };
  if (metadata) checkMetadataFits(metadata.datum);
  const live = await liveOutputsOrBusy(env, [entry, list.snapshot.head], policyId);
  const script = recordedListScript(refuseTokenizable, env.scripts, list.record);
  const tx = await buildListPayment(
    env,
    address,
    (perByte) => redeemParts(script, { utxo: live[0]!, datum: node }, { utxo: live[1]!, config }, address, metadata, perByte),
    `tokenizable-redeem:${policyId}`,
  );
  return builtListTransaction("Redeem", tx, policyId, list.record.initRef, key, live[0]!);
}
