/**
 * `POST /extension/fractionized-certificate/build`: a body in (either form, request.ts), an outcome out — the
 * unsigned transaction with the list it belongs to, or a refusal (type + message) — never a thrown error.
 *
 * Init and Insert go through the certificate issuance (shared/issuance): the key is anchored as an ordinary
 * certificate by an UPDATE_STATE or MINT_STATE of the caller, whose metadata carries the extension marker and
 * the policy id, so `/verify/{key}` finds it; the list's parts are added to that transaction and the whole is
 * built, evaluated and its inputs claimed by the same final step as every other build. Claims are a payment
 * plus the list's parts. Everything the validator would reject is refused before building.
 */
import { enterpriseAddressOfKeyHash } from "../csl/address";
import { utxoKey, type OgmiosUtxo } from "../csl/utxo";
import { outRefOf } from "../csl/utxo";
import type { OutRef } from "../domain/out-ref";
import { isBuildRefusal, keyHashOfAddress, refuse, type IssuanceEnv } from "../issuance";
import { planCertificateTransaction } from "../issuance/certificate-issuance";
import { buildEvaluatedAndClaim } from "../issuance/evaluated-build";
import { loadWalletFunds, requireCollateral } from "../issuance/wallet-funds";
import { type FractionizedConfig, FRACTIONIZED_LIST, isReservedAssetName } from "../protocol";
import { findNode, findPredecessor } from "../sorted-list";
import { refuseFractionized } from "./errors";
import type { FractionizedScripts } from "./list-layout";
import { headDatumOf, liveOutputs, loadListForBuild, nodeDatumOf, type FractionizedList, type ListSource } from "./list-state";
import { parseFractionizedRequest, type BodyForm, type FractionizedRequest, type IssueTerms, type ListRef } from "./request";
import { claimParts, combine, initParts, insertParts, type Predecessor } from "./transactions";

export interface FractionizedEnv {
  issuance: IssuanceEnv;
  lists: ListSource;
  scripts: FractionizedScripts;
}

/** The extension marker certificates of a list carry in their metadata. */
export const FRACTIONIZED_MARKER = "fractionized-certificate";

export interface BuiltFractionized {
  readonly action: "Init" | "Insert" | "Claim";
  readonly unsignedTransaction: string;
  readonly txId: string;
  readonly policyId: string;
  readonly initUtxoTxHash: string;
  readonly initUtxoOutputIndex: number;
  readonly key: string;
  /** the list entry the transaction spends (null for an Init) */
  readonly spends: OutRef | null;
}

export type FractionizedOutcome =
  | { readonly ok: true; readonly form: BodyForm; readonly built: BuiltFractionized }
  | {
      readonly ok: false;
      readonly form: BodyForm | null;
      readonly error: string;
      readonly message: string;
      readonly data: Record<string, unknown>;
      readonly policyId: string | null;
    };

const errorOf = (err: unknown) => err as { name?: string; type?: string; message?: string; data?: unknown };

/** Never throws: a refusal (FractionizedError, BuildRefusal) or an unexpected failure becomes an outcome. */
export async function handleFractionizedBuild(env: FractionizedEnv, body: Record<string, unknown>): Promise<FractionizedOutcome> {
  let req: FractionizedRequest | undefined;
  const known: { policyId: string | null } = { policyId: null };
  try {
    req = parseFractionizedRequest(body);
    const built = await buildRequest(env, req, known);
    return { ok: true, form: req.form, built };
  } catch (err) {
    const e = errorOf(err);
    const typed = e.name === "FractionizedError" || isBuildRefusal(err);
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

async function buildRequest(
  env: FractionizedEnv,
  req: FractionizedRequest,
  known: { policyId: string | null },
): Promise<BuiltFractionized> {
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
    case "Claim":
      return buildClaim(env, req.address, req.list, req.key, req.claimer, req.amount, known);
  }
}

function senderOf(env: FractionizedEnv, address: string): string {
  return keyHashOfAddress(address, env.issuance.networkId);
}

function checkAssetName(assetName: string): void {
  if (isReservedAssetName(FRACTIONIZED_LIST, assetName))
    refuseFractionized(
      "INVALID_FIELD",
      `assetName must not start with ${FRACTIONIZED_LIST.prefix} ("FRN"): that prefix names the list's own tokens.`,
      { field: "assetName" },
    );
}

/** The certificate's metadata: the caller's object plus the extension marker and the policy id. */
function certificateMetadata(terms: IssueTerms, policyId: string): string {
  const own = terms.metadata === "" ? {} : (JSON.parse(terms.metadata) as Record<string, unknown>);
  return JSON.stringify({ ...own, extension: FRACTIONIZED_MARKER, policyId });
}

function certificateRequest(address: string, terms: IssueTerms, policyId: string) {
  return {
    type: terms.bootstrapName ? ("custom" as const) : ("default" as const),
    address,
    certificates: [
      {
        hash: terms.key,
        algorithm: terms.algorithm ?? (terms.key.length === 128 ? "SHA-512" : "SHA-256"),
        metadata: certificateMetadata(terms, policyId),
      },
    ],
    ...(terms.bootstrapName ? { bootstrapDatum: { name: terms.bootstrapName } } : {}),
  };
}

async function coinsPerByte(env: FractionizedEnv): Promise<bigint> {
  return BigInt((await env.issuance.protocolParameters()).minUtxoDepositCoefficient);
}

function built(
  action: BuiltFractionized["action"],
  tx: { cborHex: string; txId: string },
  policyId: string,
  initRef: OutRef,
  key: string,
  spends: OgmiosUtxo | null,
): BuiltFractionized {
  return {
    spends: spends ? outRefOf(spends) : null,
    action,
    unsignedTransaction: tx.cborHex,
    txId: tx.txId,
    policyId,
    initUtxoTxHash: initRef.txHash,
    initUtxoOutputIndex: initRef.index,
    key,
  };
}

async function buildInit(
  env: FractionizedEnv,
  address: string,
  initRef: OutRef | undefined,
  config: { allowedInserters?: readonly string[]; deployer?: string } | undefined,
  terms: IssueTerms,
  known: { policyId: string | null },
): Promise<BuiltFractionized> {
  const sender = senderOf(env, address);
  checkAssetName(terms.assetName);
  const { chain, registry } = env.issuance;
  const funds = await loadWalletFunds(chain, registry, address);
  requireCollateral(funds);
  let initUtxo: OgmiosUtxo | undefined;
  if (initRef) {
    const wanted = `${initRef.txHash}#${initRef.index}`;
    initUtxo = funds.payable.find((u) => utxoKey(u) === wanted);
    if (!initUtxo) {
      refuseFractionized(
        "INIT_UTXO_UNAVAILABLE",
        funds.collateral && utxoKey(funds.collateral) === wanted
          ? `The init UTxO ${wanted} is this wallet's collateral; choose another UTxO of senderAddress.`
          : `The init UTxO ${wanted} is not an unspent output of ${address} that a transaction can spend now; choose another UTxO of that address.`,
        { initUtxoTxHash: initRef.txHash, initUtxoOutputIndex: initRef.index },
      );
    }
  } else {
    initUtxo = [...funds.payable].sort((a, b) => (BigInt(b.value.ada.lovelace) > BigInt(a.value.ada.lovelace) ? 1 : -1))[0]!;
  }
  const ref = outRefOf(initUtxo);
  const script = env.scripts.of(ref);
  known.policyId = script.policyId;

  const plan = await planCertificateTransaction(env.issuance, certificateRequest(address, terms, script.policyId));
  const listConfig: FractionizedConfig = {
    serviceValidatorHash: plan.live.stateHash,
    allowedInserters: config?.allowedInserters ?? [sender],
    deployer: config?.deployer ?? sender,
  };
  const spec = combine(plan.spec, initParts(script, initUtxo, terms.key, listConfig, terms));
  const tx = await buildEvaluatedAndClaim(env.issuance, spec, `fractionized-init:${plan.hintKey}`);
  return built("Init", tx, script.policyId, ref, terms.key, null);
}

async function buildInsert(
  env: FractionizedEnv,
  address: string,
  listRef: ListRef,
  terms: IssueTerms,
  known: { policyId: string | null },
): Promise<BuiltFractionized> {
  const sender = senderOf(env, address);
  checkAssetName(terms.assetName);
  const list = await loadListForBuild(env.lists, env.issuance.registry, listRef);
  const policyId = list.record.policyId;
  known.policyId = policyId;
  const config = list.head.config;
  if (config.allowedInserters.length > 0 && !config.allowedInserters.includes(sender)) {
    refuseFractionized(
      "NOT_ALLOWED_INSERTER",
      `The address ${address} (key ${sender}) is not an allowed inserter of list ${policyId}; ask its issuer, or insert from an allowed wallet.`,
      { policyId, allowedInserters: [...config.allowedInserters] },
    );
  }
  const position = findPredecessor(list.snapshot, terms.key);
  if ("duplicate" in position)
    refuseFractionized(
      "DUPLICATE_KEY",
      `The key ${terms.key} is already in list ${policyId}; each certificate hash can be inserted once.`,
      {
        policyId,
        key: terms.key,
      },
    );
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
  if (plan.live.stateHash !== config.serviceValidatorHash) {
    refuseFractionized(
      "INVALID_FIELD",
      `List ${policyId} anchors its keys through the state script ${config.serviceValidatorHash}, which the protocol no longer uses; create a new list (Init).`,
      { field: "policyId", policyId },
    );
  }
  const spec = combine(plan.spec, insertParts(script, pred, terms.key, sender, terms, await coinsPerByte(env)));
  const tx = await buildEvaluatedAndClaim(env.issuance, spec, `fractionized-insert:${policyId}:${pred.kind}:${plan.hintKey}`);
  return built("Insert", tx, policyId, list.record.initRef, terms.key, pred.utxo);
}

function checkAssetNameFree(list: FractionizedList, assetName: string): void {
  for (const n of list.snapshot.nodes.values()) {
    if (nodeDatumOf(n).assetName === assetName) {
      refuseFractionized(
        "ASSET_NAME_IN_USE",
        `The asset name ${assetName} is already minted by the node ${n.key} of this list; choose another asset name.`,
        { assetName, key: n.key },
      );
    }
  }
}

/** An entry the record names was just spent by a transaction the indexer has not recorded yet. @throws BuildRefusal */
function listBusy(policyId: string): never {
  return refuse("PENDING_TRANSACTION", `List ${policyId} was just changed by another transaction; retry in a few seconds.`, { policyId });
}

async function buildClaim(
  env: FractionizedEnv,
  address: string,
  listRef: ListRef,
  key: string,
  claimerGiven: string | undefined,
  amount: bigint,
  known: { policyId: string | null },
): Promise<BuiltFractionized> {
  const sender = senderOf(env, address);
  const claimer = claimerGiven ?? sender;
  const list = await loadListForBuild(env.lists, env.issuance.registry, listRef);
  const policyId = list.record.policyId;
  known.policyId = policyId;
  const entry = findNode(list.snapshot, key);
  if (!entry)
    refuseFractionized("UNKNOWN_KEY", `List ${policyId} has no node with key ${key} (or its Insert is not confirmed yet).`, {
      policyId,
      key,
    });
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
  const live = await liveOutputs(env.issuance.chain, [entry]);
  if (!live) listBusy(policyId);

  const { chain, registry, networkId } = env.issuance;
  const funds = await loadWalletFunds(chain, registry, address);
  const collateral = requireCollateral(funds);
  const script = env.scripts.of(list.record.initRef);
  const claimerAddress = claimer === sender ? address : enterpriseAddressOfKeyHash(claimer, networkId);
  const parts = claimParts(script, { utxo: live[0]!, datum: node }, claimer, claimerAddress, amount, await coinsPerByte(env));
  const spec = combine({ utxos: funds.payable, changeAddress: address, collateral: [collateral], mints: [], outputs: [] }, parts);
  const tx = await buildEvaluatedAndClaim(env.issuance, spec, `fractionized-claim:${policyId}`);
  return built("Claim", tx, policyId, list.record.initRef, key, live[0]!);
}
