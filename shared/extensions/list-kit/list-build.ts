/**
 * The build steps every list extension (fractionized, tokenizable) shares. A body in, an outcome out — the unsigned
 * transaction with the list it belongs to, or a refusal (type + message) — never a thrown error.
 *
 * Init and Insert go through the certificate issuance (shared/issuance): the key is anchored as an ordinary
 * certificate by an UPDATE_STATE or MINT_STATE of the caller, whose metadata carries the extension marker and the
 * policy id, so `/verify/{key}` finds it; the list's parts (the extension's codec over transaction-parts.ts) are
 * added to that transaction and the whole is built, evaluated and its inputs claimed by the same final step as
 * every other build. Everything the validator would reject is refused before building; the extension adds its own
 * rules (asset names, owners, amounts, …) and its third transition (Claim, Redeem).
 *
 * These steps sit at the flows layer (they drive shared/issuance) although the rest of shared/sorted-list is a
 * read model: they are what the two extension flows have in common, parameterised by the extension's kind.
 */
import { utxoKey, outRefOf, type OgmiosUtxo } from "../../csl/utxo";
import type { OutRef } from "../../domain/out-ref";
import { isBuildRefusal, keyHashOfAddress, refuse, type IssuanceEnv } from "../../issuance";
import { planCertificateTransaction } from "../../issuance/certificate-issuance";
import { buildEvaluatedAndClaim } from "../../issuance/evaluated-build";
import { collateralBesides, loadWalletFunds, requireCollateral } from "../../issuance/wallet-funds";
import type { BuildSpec } from "../../issuance/evaluated-build";
import type { ListRefuse } from "./list-errors";
import type { ExtensionList, extensionLists } from "./list-state";
import { liveOutputs, type ListRef, type ListSource } from "./list-source";
import { findNode, findPredecessor, type ListEntry } from "./list-view";
import type { BaseListConfigRequest, BodyForm, CertificateFields, ListIssueRequest } from "./request-fields";
import { combine, type ListParts, type ListPredecessor } from "./transaction-parts";

/** What a list extension's builds need: the issuance machinery, the indexer's lists, the extension's scripts. */
export interface ListExtensionEnv<Scripts> {
  issuance: IssuanceEnv;
  lists: ListSource;
  scripts: Scripts;
}

/** The list config every extension's HEAD holds. */
export interface BaseListConfig {
  readonly serviceValidatorHash: string;
  readonly allowedInserters: readonly string[];
  readonly deployer: string;
}

/** A built transaction of a list extension. */
export interface BuiltListTransaction<Action extends string> {
  readonly action: Action;
  readonly unsignedTransaction: string;
  readonly txId: string;
  readonly policyId: string;
  readonly initUtxoTxHash: string;
  readonly initUtxoOutputIndex: number;
  readonly key: string;
  /** the list entry the transaction spends (null for an Init) */
  readonly spends: OutRef | null;
}

export type ListBuildAnswer<Action extends string> =
  | { readonly ok: true; readonly form: BodyForm; readonly built: BuiltListTransaction<Action> }
  | {
      readonly ok: false;
      readonly form: BodyForm | null;
      readonly error: string;
      readonly message: string;
      readonly data: Record<string, unknown>;
      readonly policyId: string | null;
    };

/** The policy id a build has learnt so far (answered in `X-Policy-Id`, refusals included). */
export type KnownPolicy = { policyId: string | null };

/** The terms of the certificate an Init or Insert anchors. */
export interface AnchoredTerms extends CertificateFields {
  readonly assetName: string;
  /** the bootstrap datum whose states anchor the key (default: any) */
  readonly bootstrapName: string | undefined;
}

/** One kind of list extension as its builds see it. */
export interface ListExtensionKind<
  Head extends { readonly next: string | undefined; readonly config: BaseListConfig },
  Node extends { readonly key: string; readonly next: string | undefined; readonly assetName: string },
> {
  /** "fractionized", "tokenizable": the build hints' prefix */
  readonly name: string;
  /** the extension marker the anchored certificates carry in their metadata */
  readonly marker: string;
  /** the `name` of the extension's error class (its refusals become answers, not failures) */
  readonly errorName: string;
  readonly refuse: ListRefuse;
  readonly lists: ReturnType<typeof extensionLists<Head, Node>>;
}

const errorOf = (err: unknown) => err as { name?: string; type?: string; message?: string; data?: unknown };

/** Never throws: a refusal (the extension's error, BuildRefusal) or an unexpected failure becomes an outcome. */
export async function answerListBuild<Req extends { readonly form: BodyForm }, Action extends string>(
  errorName: string,
  parse: () => Req,
  build: (req: Req, known: KnownPolicy) => Promise<BuiltListTransaction<Action>>,
): Promise<ListBuildAnswer<Action>> {
  let req: Req | undefined;
  const known: KnownPolicy = { policyId: null };
  try {
    req = parse();
    return { ok: true, form: req.form, built: await build(req, known) };
  } catch (err) {
    const e = errorOf(err);
    const typed = e.name === errorName || isBuildRefusal(err);
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

/** Init, Insert, or (CREATE) Insert when the init output reference already made a list, else Init. */
export async function buildListIssue<Terms, Config, Built>(
  lists: ListSource,
  req: ListIssueRequest<Terms, Config>,
  build: {
    init(address: string, initRef: OutRef | undefined, config: Config | undefined, terms: Terms): Promise<Built>;
    insert(address: string, listRef: ListRef, terms: Terms): Promise<Built>;
  },
): Promise<Built> {
  switch (req.action) {
    case "Init":
      return build.init(req.address, req.initRef, req.config, req.terms);
    case "Insert":
      return build.insert(req.address, req.list, req.terms);
    case "Create": {
      const { list } = await lists.list({ initRef: req.initRef });
      return list
        ? build.insert(req.address, { initRef: req.initRef }, req.terms)
        : build.init(req.address, req.initRef, req.config, req.terms);
    }
  }
}

/** The certificate transaction that anchors the key: the caller's metadata plus the extension marker and the policy id. */
function anchoringRequest(marker: string, address: string, terms: AnchoredTerms, policyId: string) {
  const own = terms.metadata === "" ? {} : (JSON.parse(terms.metadata) as Record<string, unknown>);
  return {
    type: terms.bootstrapName ? ("custom" as const) : ("default" as const),
    address,
    certificates: [
      {
        hash: terms.key,
        algorithm: terms.algorithm ?? (terms.key.length === 128 ? "SHA-512" : "SHA-256"),
        metadata: JSON.stringify({ ...own, extension: marker, policyId }),
      },
    ],
    ...(terms.bootstrapName ? { bootstrapDatum: { name: terms.bootstrapName } } : {}),
  };
}

export async function coinsPerByte(issuance: IssuanceEnv): Promise<bigint> {
  return BigInt((await issuance.protocolParameters()).minUtxoDepositCoefficient);
}

export function builtListTransaction<Action extends string>(
  action: Action,
  tx: { cborHex: string; txId: string },
  policyId: string,
  initRef: OutRef,
  key: string,
  spends: OgmiosUtxo | null,
): BuiltListTransaction<Action> {
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

/** An entry the record names was just spent by a transaction the indexer has not recorded yet. @throws BuildRefusal */
export function listBusy(policyId: string): never {
  return refuse("PENDING_TRANSACTION", `List ${policyId} was just changed by another transaction; retry in a few seconds.`, { policyId });
}

/** The sender's payment key hash. */
export function senderKeyHash(issuance: IssuanceEnv, address: string, field?: string): string {
  return keyHashOfAddress(address, issuance.networkId, field);
}

/**
 * Init: spend the one-shot init output (the one named, else the caller's largest), anchor the key, mint the HEAD
 * and the first node. When the named output is the wallet's dedicated collateral, another ADA-only UTxO of at least
 * 5 ADA is put up as collateral instead (INIT_UTXO_UNAVAILABLE only when there is none). `before` runs the
 * extension's own rules (after the sender's address is read, before the wallet is); `parts` gets what it returned
 * and adds the extension's HEAD config and first node to the base config.
 */
export async function buildListInit<
  Head extends { readonly next: string | undefined; readonly config: BaseListConfig },
  Node extends { readonly key: string; readonly next: string | undefined; readonly assetName: string },
  Script extends { readonly policyId: string },
  Own,
>(
  kind: ListExtensionKind<Head, Node>,
  env: ListExtensionEnv<{ of(initRef: OutRef): Script }>,
  args: {
    readonly address: string;
    readonly initRef: OutRef | undefined;
    readonly config: BaseListConfigRequest | undefined;
    readonly terms: AnchoredTerms;
    readonly known: KnownPolicy;
    readonly before: () => Own;
    readonly parts: (script: Script, initUtxo: OgmiosUtxo, config: BaseListConfig, own: Own) => ListParts;
  },
): Promise<BuiltListTransaction<"Init">> {
  const { address, initRef, config, terms, known } = args;
  const sender = senderKeyHash(env.issuance, address);
  const own = args.before();
  const { chain, registry } = env.issuance;
  const funds = await loadWalletFunds(chain, registry, address);
  requireCollateral(funds);
  let initUtxo: OgmiosUtxo | undefined;
  /** set when the init UTxO is the wallet's dedicated collateral: the collateral this Init puts up instead */
  let otherCollateral: OgmiosUtxo | undefined;
  if (initRef) {
    const wanted = `${initRef.txHash}#${initRef.index}`;
    const refusal = { initUtxoTxHash: initRef.txHash, initUtxoOutputIndex: initRef.index };
    initUtxo = funds.payable.find((u) => utxoKey(u) === wanted);
    if (!initUtxo && funds.collateral && utxoKey(funds.collateral) === wanted) {
      // The caller cannot know which UTxO the service keeps as collateral: honour its choice and put up another.
      otherCollateral = collateralBesides(funds, funds.collateral);
      if (!otherCollateral)
        kind.refuse(
          "INIT_UTXO_UNAVAILABLE",
          `The init UTxO ${wanted} is the only UTxO of ${address} that can be the collateral this script transaction needs (ADA only, at least 5 ADA, confirmed); choose another UTxO of that address, or send it at least 5 ADA in a UTxO of its own first.`,
          refusal,
        );
      initUtxo = funds.collateral;
    }
    if (!initUtxo)
      kind.refuse(
        "INIT_UTXO_UNAVAILABLE",
        `The init UTxO ${wanted} is not an unspent output of ${address} that a transaction can spend now; choose another UTxO of that address.`,
        refusal,
      );
  } else {
    initUtxo = [...funds.payable].sort((a, b) => (BigInt(b.value.ada.lovelace) > BigInt(a.value.ada.lovelace) ? 1 : -1))[0]!;
  }
  const ref = outRefOf(initUtxo!);
  const script = env.scripts.of(ref);
  known.policyId = script.policyId;

  const plan = await planCertificateTransaction(env.issuance, anchoringRequest(kind.marker, address, terms, script.policyId));
  const listConfig: BaseListConfig = {
    serviceValidatorHash: plan.live.stateHash,
    allowedInserters: config?.allowedInserters ?? [sender],
    deployer: config?.deployer ?? sender,
  };
  const spec = withCollateral(combine(plan.spec, args.parts(script, initUtxo!, listConfig, own)), otherCollateral);
  const tx = await buildEvaluatedAndClaim(env.issuance, spec, `${kind.name}-init:${plan.hintKey}`);
  return builtListTransaction("Init", tx, script.policyId, ref, terms.key, null);
}

/**
 * The Init's spec with `collateral` put up instead of the wallet's dedicated one (which the Init spends as its init
 * UTxO). The Init spends that collateral too, so no concurrent build can take it before this transaction lands;
 * its value comes back as change.
 */
function withCollateral(spec: BuildSpec, collateral: OgmiosUtxo | undefined): BuildSpec {
  if (!collateral) return spec;
  const keyInputs = spec.keyInputs ?? [];
  return {
    ...spec,
    collateral: [collateral],
    keyInputs: keyInputs.some((u) => utxoKey(u) === utxoKey(collateral)) ? keyInputs : [...keyInputs, collateral],
  };
}

/**
 * Insert: the caller must be an allowed inserter and the key new (so is its asset name, derived from it); the
 * predecessor (read live) is re-created pointing at the key, and the key is anchored through the state script the
 * list was made with. The extension's own rules run in `before` (after the sender's address is read) and in
 * `check` (once the list is read); `parts` gets what `before` returned.
 */
export async function buildListInsert<
  Head extends { readonly next: string | undefined; readonly config: BaseListConfig },
  Node extends { readonly key: string; readonly next: string | undefined; readonly assetName: string },
  Script extends { readonly policyId: string },
  Own,
>(
  kind: ListExtensionKind<Head, Node>,
  env: ListExtensionEnv<{ of(initRef: OutRef): Script }>,
  args: {
    readonly address: string;
    readonly listRef: ListRef;
    readonly terms: AnchoredTerms;
    readonly known: KnownPolicy;
    readonly before: () => Own;
    readonly check?: (list: ExtensionList<Head>) => void;
    readonly parts: (script: Script, pred: ListPredecessor<Head, Node>, sender: string, own: Own, coinsPerByte: bigint) => ListParts;
  },
): Promise<BuiltListTransaction<"Insert">> {
  const { address, terms, known } = args;
  const { lists, refuse: refuseKind } = kind;
  const sender = senderKeyHash(env.issuance, address);
  const own = args.before();
  const list = await lists.loadListForBuild(env.lists, env.issuance.registry, args.listRef);
  const policyId = list.record.policyId;
  known.policyId = policyId;
  const config = list.head.config;
  args.check?.(list);
  if (config.allowedInserters.length > 0 && !config.allowedInserters.includes(sender))
    refuseKind(
      "NOT_ALLOWED_INSERTER",
      `The address ${address} (key ${sender}) is not an allowed inserter of list ${policyId}; ask its issuer, or insert from an allowed wallet.`,
      { policyId, allowedInserters: [...config.allowedInserters] },
    );
  const position = findPredecessor(list.snapshot, terms.key);
  if ("duplicate" in position)
    return refuseKind("DUPLICATE_KEY", `The key ${terms.key} is already in list ${policyId}; each certificate hash can be inserted once.`, {
      policyId,
      key: terms.key,
    });

  const script = recordedListScript(refuseKind, env.scripts, list.record);
  const predEntry = position.entry;
  const head = list.snapshot.head;
  const live = await liveOutputsOrBusy(env, predEntry.key === null ? [predEntry] : [predEntry, head], policyId);
  const pred: ListPredecessor<Head, Node> =
    predEntry.key === null
      ? { kind: "head", utxo: live[0]!, datum: lists.headDatumOf(predEntry) }
      : { kind: "node", utxo: live[0]!, datum: lists.nodeDatumOf(predEntry), head: live[1]! };

  const plan = await planCertificateTransaction(env.issuance, anchoringRequest(kind.marker, address, terms, policyId));
  if (plan.live.stateHash !== config.serviceValidatorHash)
    refuseKind(
      "INVALID_FIELD",
      `List ${policyId} anchors its keys through the state script ${config.serviceValidatorHash}, which the protocol no longer uses; create a new list (Init).`,
      { field: "policyId", policyId },
    );
  const parts = args.parts(script, pred, sender, own, await coinsPerByte(env.issuance));
  const tx = await buildEvaluatedAndClaim(
    env.issuance,
    combine(plan.spec, parts),
    `${kind.name}-insert:${policyId}:${pred.kind}:${plan.hintKey}`,
  );
  return builtListTransaction("Insert", tx, policyId, list.record.initRef, terms.key, pred.utxo);
}

/**
 * The script of a recorded list: the extension's current script with the list's init output reference applied. A
 * list made by an earlier version of that script (its record kept across an upgrade of the service) has another
 * policy id, and the service has no longer the script to spend its entries: refused, never built with the wrong
 * script. @throws the extension's INVALID_FIELD
 */
export function recordedListScript<S extends { readonly policyId: string }>(
  refuseKind: ListRefuse,
  scripts: { of(initRef: OutRef): S },
  record: { readonly policyId: string; readonly initRef: OutRef },
): S {
  const script = scripts.of(record.initRef);
  if (script.policyId !== record.policyId)
    refuseKind(
      "INVALID_FIELD",
      `List ${record.policyId} was made by an earlier version of this extension's script (its policy is not ${script.policyId}, what the current script gives its init UTxO); this service builds only for lists of its current script. Its nodes and tokens stay on chain under the old script; create a new list (Init).`,
      { field: "policyId", policyId: record.policyId },
    );
  return script;
}

/** The entries as they are now, or the PENDING_TRANSACTION refusal when one was just spent. */
export async function liveOutputsOrBusy(
  env: { issuance: IssuanceEnv },
  entries: Parameters<typeof liveOutputs>[1],
  policyId: string,
): Promise<OgmiosUtxo[]> {
  const live = await liveOutputs(env.issuance.chain, entries);
  return live ?? listBusy(policyId);
}

/** The node of `key` in the list. @throws the extension's UNKNOWN_KEY */
export function nodeOrUnknown<Head>(refuseKind: ListRefuse, list: ExtensionList<Head>, key: string): ListEntry {
  const entry = findNode(list.snapshot, key);
  if (!entry)
    return refuseKind("UNKNOWN_KEY", `List ${list.record.policyId} has no node with key ${key} (or its Insert is not confirmed yet).`, {
      policyId: list.record.policyId,
      key,
    });
  return entry;
}

/** A transition that anchors nothing (Claim, Redeem): a payment from the caller's wallet plus the list's parts. */
export async function buildListPayment(
  env: { issuance: IssuanceEnv },
  address: string,
  parts: (coinsPerByte: bigint) => ListParts,
  hintKey: string,
): Promise<{ cborHex: string; txId: string }> {
  const { chain, registry } = env.issuance;
  const funds = await loadWalletFunds(chain, registry, address);
  const collateral = requireCollateral(funds);
  const listParts = parts(await coinsPerByte(env.issuance));
  const spec = combine({ utxos: funds.payable, changeAddress: address, collateral: [collateral], mints: [], outputs: [] }, listParts);
  return buildEvaluatedAndClaim(env.issuance, spec, hintKey);
}
