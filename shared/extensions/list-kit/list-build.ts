/**
 * The build steps every list extension (fractionized, tokenizable) shares, each refusing through the extension's
 * own `refuse`; build-answer.ts turns refusals into answers.
 *
 * Init and Insert anchor the key as an ordinary certificate (an UPDATE_STATE or MINT_STATE of the caller, whose
 * metadata carries the extension marker and the policy id, so `/verify/{key}` finds it) and add the list's parts to
 * that transaction, through the issuance's one entry point for extensions (buildAnchoringWith). The extension's own
 * transition (Claim, Redeem) is a payment plus the list's parts (buildNodeTransition). Everything the validator
 * would reject is refused before building; the extension adds its own rules.
 */
import { utxoKey, outRefOf, type OgmiosUtxo } from "../../csl/utxo";
import type { DataHash } from "../../domain/hex";
import type { OutRef } from "../../domain/out-ref";
import {
  buildAnchoringWith,
  buildPaymentWith,
  coinsPerUtxoByte,
  collateralBesides,
  keyHashOfAddress,
  loadWalletFunds,
  refuse,
  requireCollateral,
  type ExtraParts,
  type IssuanceEnv,
} from "../../issuance/for-extensions";
import { builtListTransaction, type BuiltListTransaction, type KnownPolicy, type ListExtensionEnv } from "./build-answer";
import type { BaseListConfig } from "./list-datum";
import type { ListRefuse } from "./list-errors";
import type { ListHead, ListNode } from "./list-extension";
import type { AnchoredTerms } from "./list-request";
import { liveOutputs, type ListRef } from "./list-source";
import type { ExtensionList, extensionLists } from "./list-state";
import { findNode, findPredecessor, type ListEntry } from "./list-view";
import type { BaseListConfigRequest } from "./request-fields";
import type { ListPredecessor } from "./transaction-parts";

/** What the shared steps need of the extension (from defineListExtension). */
interface ListBuildKind<Head extends ListHead, Node extends ListNode> {
  readonly name: string;
  readonly marker: string;
  readonly refuse: ListRefuse;
  readonly lists: ReturnType<typeof extensionLists<Head, Node>>;
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

/** An entry the record names was just spent by a transaction the indexer has not recorded yet. @throws BuildRefusal */
function listBusy(policyId: string): never {
  return refuse("PENDING_TRANSACTION", `List ${policyId} was just changed by another transaction; retry in a few seconds.`, { policyId });
}

/**
 * Init: spend the one-shot init output (the one named, else the caller's largest), anchor the key, mint the HEAD
 * and the first node. When the named output is the wallet's dedicated collateral, another ADA-only UTxO of at least
 * 5 ADA is put up as collateral instead (INIT_UTXO_UNAVAILABLE only when there is none). `before` runs the
 * extension's own rules (after the sender's address is read, before the wallet is); `parts` gets what it returned
 * and adds the extension's HEAD config and first node to the base config.
 */
export async function buildListInit<Head extends ListHead, Node extends ListNode, Script extends { readonly policyId: string }, Own>(
  kind: ListBuildKind<Head, Node>,
  env: ListExtensionEnv<{ of(initRef: OutRef): Script }>,
  args: {
    readonly address: string;
    readonly initRef: OutRef | undefined;
    readonly config: BaseListConfigRequest | undefined;
    readonly terms: AnchoredTerms;
    readonly known: KnownPolicy;
    readonly before: () => Own;
    readonly parts: (script: Script, initUtxo: OgmiosUtxo, config: BaseListConfig, own: Own) => ExtraParts;
  },
): Promise<BuiltListTransaction<"Init">> {
  const { address, initRef, config, terms, known } = args;
  const sender = keyHashOfAddress(address, env.issuance.networkId);
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

  const tx = await buildAnchoringWith(
    env.issuance,
    anchoringRequest(kind.marker, address, terms, script.policyId),
    ({ stateHash }) => {
      const listConfig: BaseListConfig = {
        serviceValidatorHash: stateHash,
        allowedInserters: config?.allowedInserters ?? [sender],
        deployer: config?.deployer ?? sender,
      };
      return { parts: args.parts(script, initUtxo!, listConfig, own), ...(otherCollateral ? { collateral: otherCollateral } : {}) };
    },
    (anchoring) => `${kind.name}-init:${anchoring}`,
  );
  return builtListTransaction("Init", tx, script.policyId, ref, terms.key, null);
}

/**
 * Insert: the caller must be an allowed inserter and the key new (so is its asset name, derived from it); the
 * predecessor (read live) is re-created pointing at the key, and the key is anchored through the state script the
 * list was made with. The extension's own rules run in `before` (after the sender's address is read) and in
 * `check` (once the list is read); `parts` gets what `before` returned.
 */
export async function buildListInsert<Head extends ListHead, Node extends ListNode, Script extends { readonly policyId: string }, Own>(
  kind: ListBuildKind<Head, Node>,
  env: ListExtensionEnv<{ of(initRef: OutRef): Script }>,
  args: {
    readonly address: string;
    readonly listRef: ListRef;
    readonly terms: AnchoredTerms;
    readonly known: KnownPolicy;
    readonly before: () => Own;
    readonly check?: (list: ExtensionList<Head>) => void;
    readonly parts: (script: Script, pred: ListPredecessor<Head, Node>, sender: string, own: Own, coinsPerByte: bigint) => ExtraParts;
  },
): Promise<BuiltListTransaction<"Insert">> {
  const { address, terms, known } = args;
  const { lists, refuse: refuseKind } = kind;
  const sender = keyHashOfAddress(address, env.issuance.networkId);
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

  const tx = await buildAnchoringWith(
    env.issuance,
    anchoringRequest(kind.marker, address, terms, policyId),
    async ({ stateHash }) => {
      if (stateHash !== config.serviceValidatorHash)
        refuseKind(
          "INVALID_FIELD",
          `List ${policyId} anchors its keys through the state script ${config.serviceValidatorHash}, which the protocol no longer uses; create a new list (Init).`,
          { field: "policyId", policyId },
        );
      return { parts: args.parts(script, pred, sender, own, await coinsPerUtxoByte(env.issuance)) };
    },
    (anchoring) => `${kind.name}-insert:${policyId}:${pred.kind}:${anchoring}`,
  );
  return builtListTransaction("Insert", tx, policyId, list.record.initRef, terms.key, pred.utxo);
}

/**
 * The extension's own transition of one node (Claim, Redeem): the node of `key` read from the list (with in-flight
 * transactions applied), the extension's rules (`check`, which may refuse and returns what `parts` needs), the node
 * (and, `withHead`, the HEAD as a reference) read live, and a payment from the caller's wallet plus the parts.
 */
export async function buildNodeTransition<
  Head extends ListHead,
  Node extends ListNode,
  Script extends { readonly policyId: string },
  Action extends string,
  Checked,
>(
  kind: ListBuildKind<Head, Node>,
  env: ListExtensionEnv<{ of(initRef: OutRef): Script }>,
  args: {
    readonly action: Action;
    readonly address: string;
    /** the field a malformed sender address is refused as (default: the address's own) */
    readonly senderField?: string;
    readonly listRef: ListRef;
    readonly key: DataHash;
    readonly known: KnownPolicy;
    readonly withHead: boolean;
    readonly check: (node: Node, sender: string, list: ExtensionList<Head>, entry: ListEntry) => Checked | Promise<Checked>;
    readonly parts: (
      script: Script,
      live: { node: OgmiosUtxo; head: OgmiosUtxo | undefined },
      checked: Checked,
      coinsPerByte: bigint,
    ) => ExtraParts;
  },
): Promise<BuiltListTransaction<Action>> {
  const { address, known } = args;
  const sender = keyHashOfAddress(address, env.issuance.networkId, args.senderField);
  const list = await kind.lists.loadListForBuild(env.lists, env.issuance.registry, args.listRef);
  const policyId = list.record.policyId;
  known.policyId = policyId;
  const entry = nodeOrUnknown(kind.refuse, list, args.key);
  const checked = await args.check(kind.lists.nodeDatumOf(entry), sender, list, entry);
  const live = await liveOutputsOrBusy(env, args.withHead ? [entry, list.snapshot.head] : [entry], policyId);
  const script = recordedListScript(kind.refuse, env.scripts, list.record);
  const tx = await buildPaymentWith(
    env.issuance,
    address,
    (perByte) => args.parts(script, { node: live[0]!, head: live[1] }, checked, perByte),
    `${kind.name}-${args.action.toLowerCase()}:${policyId}`,
  );
  return builtListTransaction(args.action, tx, policyId, list.record.initRef, args.key, live[0]!);
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
async function liveOutputsOrBusy(
  env: { issuance: IssuanceEnv },
  entries: Parameters<typeof liveOutputs>[1],
  policyId: string,
): Promise<OgmiosUtxo[]> {
  const live = await liveOutputs(env.issuance.chain, entries);
  return live ?? listBusy(policyId);
}

/** The node of `key` in the list. @throws the extension's UNKNOWN_KEY */
function nodeOrUnknown<Head>(refuseKind: ListRefuse, list: ExtensionList<Head>, key: DataHash): ListEntry {
  const entry = findNode(list.snapshot, key);
  if (!entry)
    return refuseKind("UNKNOWN_KEY", `List ${list.record.policyId} has no node with key ${key} (or its Insert is not confirmed yet).`, {
      policyId: list.record.policyId,
      key,
    });
  return entry;
}
