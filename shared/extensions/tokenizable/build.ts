/**
 * `POST /extension/tokenizable-certificate/build`: a body in (either form, request.ts), an outcome out — the
 * unsigned transaction with the list it belongs to, or a refusal — never a thrown error (the list kit's
 * build-answer.ts). Init and Insert are the list builds every list extension shares (list-kit/list-build.ts) with
 * the tokenizable rules: the owner, the CIP-68 metadata script and the metadata's size. A Redeem is a payment by the
 * owner plus the list's parts; in CIP-68 mode its reference token carries the certificate's metadata (metadata.ts).
 * Everything the validator would reject is refused before building.
 */
import { keyHashOfAddress } from "../../issuance/for-extensions";
import { listBuildHandler, type KnownPolicy, type ListBuildAnswer, type ListExtensionEnv } from "../list-kit/build-answer";
import { buildListInit, buildListInsert, buildNodeTransition } from "../list-kit/list-build";
import { refuseTokenizable, TOKENIZABLE } from "./extension";
import { checkMetadataFits, cip68MetadataOf } from "./metadata";
import { parseTokenizableRequest, type IssueTerms, type RedeemRequest } from "./request";
import type { TokenizableScripts } from "./scripts";
import { initParts, insertParts, redeemParts } from "./transactions";

export interface TokenizableEnv extends ListExtensionEnv<TokenizableScripts> {
  /** the metadata anchored with a key by a transaction (JSON text, "" when none is known) */
  certificateMetadata(key: string, txHash: string | undefined): Promise<string>;
}

type TokenizableOutcome = ListBuildAnswer<"Init" | "Insert" | "Redeem">;

function ownerOf(env: TokenizableEnv, terms: IssueTerms): string {
  return "keyHash" in terms.owner ? terms.owner.keyHash : keyHashOfAddress(terms.owner.address, env.issuance.networkId, "ownerAddress");
}

/** The metadata bound of a CIP-68 list, checked before building. */
function checkTerms(terms: IssueTerms, cip68: boolean): void {
  if (cip68) checkMetadataFits(cip68MetadataOf(terms.key, terms.metadata));
}

/** Never throws: a refusal (TokenizableError, BuildRefusal) or an unexpected failure becomes an outcome. */
export const handleTokenizableBuild: (env: TokenizableEnv, body: Record<string, unknown>) => Promise<TokenizableOutcome> = listBuildHandler(
  TOKENIZABLE,
  parseTokenizableRequest,
  {
    init(env: TokenizableEnv, address, initRef, config, terms, known) {
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
    },
    insert: (env: TokenizableEnv, address, listRef, terms, known) =>
      buildListInsert(TOKENIZABLE, env, {
        address,
        listRef,
        terms,
        known,
        before: () => ownerOf(env, terms),
        check: (list) => checkTerms(terms, list.head.config.cip68ScriptHash !== undefined),
        parts: (script, pred, sender, owner, perByte) =>
          insertParts(script, pred, terms.key, sender, { owner, assetName: terms.assetName }, perByte),
      }),
    own: buildRedeem,
  },
);

function buildRedeem(env: TokenizableEnv, req: RedeemRequest, known: KnownPolicy) {
  const { address, key } = req;
  return buildNodeTransition(TOKENIZABLE, env, {
    action: "Redeem",
    address,
    senderField: "senderAddress",
    listRef: req.list,
    key,
    known,
    withHead: true,
    async check(node, sender, list, entry) {
      const policyId = list.record.policyId;
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
      return { node, config, metadata };
    },
    parts: (script, live, c, perByte) =>
      redeemParts(script, { utxo: live.node, datum: c.node }, { utxo: live.head!, config: c.config }, address, c.metadata, perByte),
  });
}
