/**
 * `POST /extension/tokenizable-certificate/build`: a body in (either form, request.ts), an outcome out — the
 * unsigned transaction with the list it belongs to, or a refusal (type + message) — never a thrown error.
 *
 * Init and Insert go through the certificate issuance (shared/issuance), as for fractionized lists: the key is
 * anchored as an ordinary certificate of the caller whose metadata carries the extension marker and the policy
 * id, so `/verify/{key}` finds it; the list's parts are added to that transaction. A Redeem is a payment by the
 * owner plus the list's parts; in CIP-68 mode its reference token carries the certificate's metadata
 * (metadata.ts). Everything the validator would reject is refused before building.
 */
import { utxoKey, outRefOf, type OgmiosUtxo } from "../csl/utxo";
import type { OutRef } from "../domain/out-ref";
import { isBuildRefusal, keyHashOfAddress, refuse, type IssuanceEnv } from "../issuance";
import { planCertificateTransaction } from "../issuance/certificate-issuance";
import { buildEvaluatedAndClaim } from "../issuance/evaluated-build";
import { loadWalletFunds, requireCollateral } from "../issuance/wallet-funds";
import { type TokenizableConfig, TOKENIZABLE_LIST } from "../protocol";
import { combine, findNode, findPredecessor, liveOutputs, type ListRef, type ListSource } from "../sorted-list";
import { refuseTokenizable } from "./errors";
import type { TokenizableScripts } from "./list-layout";
import { headDatumOf, loadListForBuild, nodeDatumOf, type TokenizableList } from "./list-state";
import { checkMetadataFits, cip68MetadataOf } from "./metadata";
import {
  MAX_CIP68_ASSET_NAME_BYTES,
  parseTokenizableRequest,
  type BodyForm,
  type IssueTerms,
  type ListConfigRequest,
  type TokenizableRequest,
} from "./request";
import { initParts, insertParts, redeemParts, type Predecessor } from "./transactions";

export interface TokenizableEnv {
  issuance: IssuanceEnv;
  lists: ListSource;
  scripts: TokenizableScripts;
  /** the metadata anchored with a key by a transaction (JSON text, "" when none is known) */
  certificateMetadata(key: string, txHash: string | undefined): Promise<string>;
}

/** The extension marker certificates of a list carry in their metadata. */
export const TOKENIZABLE_MARKER = "tokenizable-certificate";

export interface BuiltTokenizable {
  readonly action: "Init" | "Insert" | "Redeem";
  readonly unsignedTransaction: string;
  readonly txId: string;
  readonly policyId: string;
  readonly initUtxoTxHash: string;
  readonly initUtxoOutputIndex: number;
  readonly key: string;
  /** the list entry the transaction spends (null for an Init) */
  readonly spends: OutRef | null;
}

export type TokenizableOutcome =
  | { readonly ok: true; readonly form: BodyForm; readonly built: BuiltTokenizable }
  | {
      readonly ok: false;
      readonly form: BodyForm | null;
      readonly error: string;
      readonly message: string;
      readonly data: Record<string, unknown>;
      readonly policyId: string | null;
    };

type Known = { policyId: string | null };

const errorOf = (err: unknown) => err as { name?: string; type?: string; message?: string; data?: unknown };

/** Never throws: a refusal (TokenizableError, BuildRefusal) or an unexpected failure becomes an outcome. */
export async function handleTokenizableBuild(env: TokenizableEnv, body: Record<string, unknown>): Promise<TokenizableOutcome> {
  let req: TokenizableRequest | undefined;
  const known: Known = { policyId: null };
  try {
    req = parseTokenizableRequest(body);
    return { ok: true, form: req.form, built: await buildRequest(env, req, known) };
  } catch (err) {
    const e = errorOf(err);
    const typed = e.name === "TokenizableError" || isBuildRefusal(err);
    const data = typed && typeof e.data === "object" && e.data !== null ? (e.data as Record<string, unknown>) : {};
    return {
      ok: false,
      form: req?.form ?? null,
      error: typed ? String(e.type) : "UNKNOWN_ERROR",
      message: typed ? String(e.message) : `The transaction could not be built: ${e.message ?? String(err)}`,
      data,
      policyId: known.policyId,
    };
  }
}

async function buildRequest(env: TokenizableEnv, req: TokenizableRequest, known: Known): Promise<BuiltTokenizable> {
  switch (req.action) {
    case "Init":
      return buildInit(env, req.address, req.initRef, req.config, req.terms, known);
    case "Insert":
      return buildInsert(env, req.address, req.list, req.terms, known);
    case "Create": {
      const { list } = await env.lists.list({ initRef: req.initRef });
      return list
        ? buildInsert(env, req.address, { initRef: req.initRef }, req.terms, known)
        : buildInit(env, req.address, req.initRef, req.config, req.terms, known);
    }
    case "Redeem":
      return buildRedeem(env, req.address, req.list, req.key, known);
  }
}

function ownerOf(env: TokenizableEnv, terms: IssueTerms): string {
  return "keyHash" in terms.owner ? terms.owner.keyHash : keyHashOfAddress(terms.owner.address, env.issuance.networkId, "ownerAddress");
}

/** Asset-name rules of the validator, and the metadata bound, checked before building. */
function checkTerms(terms: IssueTerms, cip68: boolean): void {
  if (terms.assetName.startsWith(TOKENIZABLE_LIST.prefix))
    refuseTokenizable(
      "INVALID_FIELD",
      `assetName must not start with ${TOKENIZABLE_LIST.prefix} ("TCN"): that prefix names the list's own tokens.`,
      {
        field: "assetName",
      },
    );
  if (cip68 && terms.assetName.length / 2 > MAX_CIP68_ASSET_NAME_BYTES)
    refuseTokenizable(
      "INVALID_FIELD",
      `assetName must be at most ${MAX_CIP68_ASSET_NAME_BYTES} bytes in a CIP-68 list (the 4-byte label makes the token name).`,
      { field: "assetName" },
    );
  if (cip68) checkMetadataFits(cip68MetadataOf(terms.key, terms.metadata));
}

function certificateRequest(address: string, terms: IssueTerms, policyId: string) {
  const own = terms.metadata === "" ? {} : (JSON.parse(terms.metadata) as Record<string, unknown>);
  return {
    type: terms.bootstrapName ? ("custom" as const) : ("default" as const),
    address,
    certificates: [
      {
        hash: terms.key,
        algorithm: terms.algorithm ?? (terms.key.length === 128 ? "SHA-512" : "SHA-256"),
        metadata: JSON.stringify({ ...own, extension: TOKENIZABLE_MARKER, policyId }),
      },
    ],
    ...(terms.bootstrapName ? { bootstrapDatum: { name: terms.bootstrapName } } : {}),
  };
}

async function coinsPerByte(env: TokenizableEnv): Promise<bigint> {
  return BigInt((await env.issuance.protocolParameters()).minUtxoDepositCoefficient);
}

function built(
  action: BuiltTokenizable["action"],
  tx: { cborHex: string; txId: string },
  policyId: string,
  initRef: OutRef,
  key: string,
  spends: OgmiosUtxo | null,
): BuiltTokenizable {
  return {
    action,
    unsignedTransaction: tx.cborHex,
    txId: tx.txId,
    policyId,
    initUtxoTxHash: initRef.txHash,
    initUtxoOutputIndex: initRef.index,
    key,
    spends: spends ? outRefOf(spends) : null,
  };
}

async function buildInit(
  env: TokenizableEnv,
  address: string,
  initRef: OutRef | undefined,
  config: ListConfigRequest | undefined,
  terms: IssueTerms,
  known: Known,
): Promise<BuiltTokenizable> {
  const sender = keyHashOfAddress(address, env.issuance.networkId);
  const owner = ownerOf(env, terms);
  const cip68 = config?.cip68ScriptHash;
  if (cip68 !== undefined && cip68 !== env.scripts.metadata.hash)
    refuseTokenizable(
      "INVALID_FIELD",
      `config.cip68ScriptAddress ${cip68} is not this service's CIP-68 metadata script; use ${env.scripts.metadata.hash} (GET /extension/tokenizable-certificate/metadata-script) or leave it empty for plain tokens.`,
      { field: "config.cip68ScriptAddress", scriptHash: env.scripts.metadata.hash },
    );
  checkTerms(terms, cip68 !== undefined);
  const { chain, registry } = env.issuance;
  const funds = await loadWalletFunds(chain, registry, address);
  requireCollateral(funds);
  let initUtxo: OgmiosUtxo | undefined;
  if (initRef) {
    const wanted = `${initRef.txHash}#${initRef.index}`;
    initUtxo = funds.payable.find((u) => utxoKey(u) === wanted);
    if (!initUtxo)
      refuseTokenizable(
        "INIT_UTXO_UNAVAILABLE",
        funds.collateral && utxoKey(funds.collateral) === wanted
          ? `The init UTxO ${wanted} is this wallet's collateral; choose another UTxO of senderAddress.`
          : `The init UTxO ${wanted} is not an unspent output of ${address} that a transaction can spend now; choose another UTxO of that address.`,
        { initUtxoTxHash: initRef.txHash, initUtxoOutputIndex: initRef.index },
      );
  } else {
    initUtxo = [...funds.payable].sort((a, b) => (BigInt(b.value.ada.lovelace) > BigInt(a.value.ada.lovelace) ? 1 : -1))[0]!;
  }
  const ref = outRefOf(initUtxo);
  const script = env.scripts.of(ref);
  known.policyId = script.policyId;

  const plan = await planCertificateTransaction(env.issuance, certificateRequest(address, terms, script.policyId));
  const listConfig: TokenizableConfig = {
    serviceValidatorHash: plan.live.stateHash,
    allowedInserters: config?.allowedInserters ?? [sender],
    deployer: config?.deployer ?? sender,
    cip68ScriptHash: cip68,
  };
  const spec = combine(plan.spec, initParts(script, initUtxo, terms.key, listConfig, { owner, assetName: terms.assetName }));
  const tx = await buildEvaluatedAndClaim(env.issuance, spec, `tokenizable-init:${plan.hintKey}`);
  return built("Init", tx, script.policyId, ref, terms.key, null);
}

/** An entry the record names was just spent by a transaction the indexer has not recorded yet. @throws BuildRefusal */
function listBusy(policyId: string): never {
  return refuse("PENDING_TRANSACTION", `List ${policyId} was just changed by another transaction; retry in a few seconds.`, { policyId });
}

function checkAssetNameFree(list: TokenizableList, assetName: string): void {
  for (const n of list.snapshot.nodes.values())
    if (nodeDatumOf(n).assetName === assetName)
      refuseTokenizable(
        "ASSET_NAME_IN_USE",
        `The asset name ${assetName} is already given to the node ${n.key} of this list; choose another asset name.`,
        {
          assetName,
          key: n.key,
        },
      );
}

async function buildInsert(
  env: TokenizableEnv,
  address: string,
  listRef: ListRef,
  terms: IssueTerms,
  known: Known,
): Promise<BuiltTokenizable> {
  const sender = keyHashOfAddress(address, env.issuance.networkId);
  const owner = ownerOf(env, terms);
  const list = await loadListForBuild(env.lists, env.issuance.registry, listRef);
  const policyId = list.record.policyId;
  known.policyId = policyId;
  const config = list.head.config;
  checkTerms(terms, config.cip68ScriptHash !== undefined);
  if (config.allowedInserters.length > 0 && !config.allowedInserters.includes(sender))
    refuseTokenizable(
      "NOT_ALLOWED_INSERTER",
      `The address ${address} (key ${sender}) is not an allowed inserter of list ${policyId}; ask its issuer, or insert from an allowed wallet.`,
      { policyId, allowedInserters: [...config.allowedInserters] },
    );
  const position = findPredecessor(list.snapshot, terms.key);
  if ("duplicate" in position)
    refuseTokenizable("DUPLICATE_KEY", `The key ${terms.key} is already in list ${policyId}; each certificate hash can be inserted once.`, {
      policyId,
      key: terms.key,
    });
  checkAssetNameFree(list, terms.assetName);

  const script = env.scripts.of(list.record.initRef);
  const predEntry = position.entry;
  const head = list.snapshot.head;
  const live = await liveOutputs(env.issuance.chain, predEntry.key === null ? [predEntry] : [predEntry, head]);
  if (!live) listBusy(policyId);
  const pred: Predecessor =
    predEntry.key === null
      ? { kind: "head", utxo: live[0]!, datum: headDatumOf(predEntry) }
      : { kind: "node", utxo: live[0]!, datum: nodeDatumOf(predEntry), head: live[1]! };

  const plan = await planCertificateTransaction(env.issuance, certificateRequest(address, terms, policyId));
  if (plan.live.stateHash !== config.serviceValidatorHash)
    refuseTokenizable(
      "INVALID_FIELD",
      `List ${policyId} anchors its keys through the state script ${config.serviceValidatorHash}, which the protocol no longer uses; create a new list (Init).`,
      { field: "policyId", policyId },
    );
  const parts = insertParts(script, pred, terms.key, sender, { owner, assetName: terms.assetName }, await coinsPerByte(env));
  const tx = await buildEvaluatedAndClaim(
    env.issuance,
    combine(plan.spec, parts),
    `tokenizable-insert:${policyId}:${pred.kind}:${plan.hintKey}`,
  );
  return built("Insert", tx, policyId, list.record.initRef, terms.key, pred.utxo);
}

async function buildRedeem(env: TokenizableEnv, address: string, listRef: ListRef, key: string, known: Known): Promise<BuiltTokenizable> {
  const sender = keyHashOfAddress(address, env.issuance.networkId, "senderAddress");
  const list = await loadListForBuild(env.lists, env.issuance.registry, listRef);
  const policyId = list.record.policyId;
  known.policyId = policyId;
  const entry = findNode(list.snapshot, key);
  if (!entry)
    refuseTokenizable("UNKNOWN_KEY", `List ${policyId} has no node with key ${key} (or its Insert is not confirmed yet).`, {
      policyId,
      key,
    });
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
  const live = await liveOutputs(env.issuance.chain, [entry, list.snapshot.head]);
  if (!live) listBusy(policyId);

  const { chain, registry } = env.issuance;
  const funds = await loadWalletFunds(chain, registry, address);
  const collateral = requireCollateral(funds);
  const script = env.scripts.of(list.record.initRef);
  const parts = redeemParts(
    script,
    { utxo: live[0]!, datum: node },
    { utxo: live[1]!, config },
    address,
    metadata,
    await coinsPerByte(env),
  );
  const spec = combine({ utxos: funds.payable, changeAddress: address, collateral: [collateral], mints: [], outputs: [] }, parts);
  const tx = await buildEvaluatedAndClaim(env.issuance, spec, `tokenizable-redeem:${policyId}`);
  return built("Redeem", tx, policyId, list.record.initRef, key, live[0]!);
}
