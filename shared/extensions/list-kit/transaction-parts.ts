/**
 * The parts a list transition adds to its base transaction (the anchoring certificate transaction, or a payment:
 * shared/issuance/for-extensions.ts), for any kind of list: list outputs, re-created entries keeping their ADA,
 * Init and Insert from the list's codec, and the transition of one node (Claim, Redeem).
 */
import type { PlutusScriptWitness } from "../../csl/build-tx";
import { outputFrom, type OutputSpec } from "../../csl/outputs";
import type { OgmiosUtxo } from "../../csl/utxo";
import type { ExtraParts } from "../../issuance/for-extensions";
import { type Data, dataToCborHex, type PolicyScript } from "../../protocol";

/** An output at the list's address holding one of its tokens, with an inline datum. */
function listOutput(script: { address: string; policyId: string }, tokenName: string, datum: Data, lovelace?: bigint): OutputSpec {
  return {
    address: script.address,
    assets: { [script.policyId]: { [tokenName]: 1n } },
    inlineDatum: dataToCborHex(datum),
    ...(lovelace !== undefined ? { lovelace } : {}),
  };
}

/** A re-created entry keeps at least its ADA, topped up to the min-ADA of its (possibly larger) datum. */
function keepingAda(out: OutputSpec, old: OgmiosUtxo, coinsPerByte: bigint): OutputSpec {
  const min = BigInt(
    outputFrom({ ...out, lovelace: undefined }, coinsPerByte)
      .amount()
      .coin()
      .to_str(),
  );
  const kept = BigInt(old.value.ada.lovelace);
  return { ...out, lovelace: kept > min ? kept : min };
}

/** A list's script, attached to each transaction that runs it (every list has its own: the init out-ref is its parameter). */
type ListScript = PolicyScript & { readonly headTokenName: string };

const listScriptWitness = (script: ListScript): PlutusScriptWitness => ({ language: "plutus:v3", cbor: script.code });

/** What Init and Insert need of one kind of list: its token names and datum and redeemer encodings. */
export interface ListCodec<
  Head extends { readonly next: string | undefined },
  Node extends { readonly key: string; readonly next: string | undefined },
> {
  nodeTokenName(key: string): string;
  encodeHead(head: Head): Data;
  encodeNode(node: Node): Data;
  /** CBOR hex of the Init or Insert redeemer for a key */
  redeemer(action: "Init" | "Insert", key: string): string;
}

/** The entry an insert links from: the HEAD, or a node (then the HEAD rides along as a reference input). */
export type ListPredecessor<Head, Node> =
  | { readonly kind: "head"; readonly utxo: OgmiosUtxo; readonly datum: Head }
  | { readonly kind: "node"; readonly utxo: OgmiosUtxo; readonly datum: Node; readonly head: OgmiosUtxo };

/** Init: spend the one-shot output, mint the HEAD and the first node, the deployer signs. */
function listInitParts<
  Head extends { readonly next: string | undefined },
  Node extends { readonly key: string; readonly next: string | undefined },
>(codec: ListCodec<Head, Node>, script: ListScript, initUtxo: OgmiosUtxo, head: Head, first: Node, deployer: string): ExtraParts {
  const node = codec.nodeTokenName(first.key);
  const redeemer = codec.redeemer("Init", first.key);
  return {
    keyInputs: [initUtxo],
    mints: [{ policy: listScriptWitness(script), redeemer, assets: { [script.headTokenName]: 1n, [node]: 1n } }],
    outputs: [listOutput(script, script.headTokenName, codec.encodeHead(head)), listOutput(script, node, codec.encodeNode(first))],
    requiredSigners: [deployer],
  };
}

/** Insert: re-create the predecessor pointing at the new key (keeping its ADA), mint the new node, the inserter signs. */
function listInsertParts<
  Head extends { readonly next: string | undefined },
  Node extends { readonly key: string; readonly next: string | undefined },
>(
  codec: ListCodec<Head, Node>,
  script: ListScript,
  pred: ListPredecessor<Head, Node>,
  inserted: Node,
  inserter: string,
  coinsPerByte: bigint,
): ExtraParts {
  const key = inserted.key;
  const node = codec.nodeTokenName(key);
  const redeemer = codec.redeemer("Insert", key);
  const relinked =
    pred.kind === "head"
      ? listOutput(script, script.headTokenName, codec.encodeHead({ ...pred.datum, next: key }))
      : listOutput(script, codec.nodeTokenName(pred.datum.key), codec.encodeNode({ ...pred.datum, next: key }));
  return {
    scriptInputs: [{ utxo: pred.utxo, script: listScriptWitness(script), redeemer }],
    referenceInputs: pred.kind === "node" ? [pred.head] : [],
    mints: [{ policy: listScriptWitness(script), redeemer, assets: { [node]: 1n } }],
    outputs: [keepingAda(relinked, pred.utxo, coinsPerByte), listOutput(script, node, codec.encodeNode(inserted))],
    requiredSigners: [inserter],
  };
}

/**
 * An extension's Init and Insert parts from its codec and how it makes a new node of a key from the request's
 * terms: Init mints the HEAD `{ next: key, config }` and the first node (the deployer signs), Insert links the new
 * node after its predecessor (the inserter signs).
 */
export function listIssueParts<
  Config extends { readonly deployer: string },
  Node extends { readonly key: string; readonly next: string | undefined },
  Terms,
>(
  codec: ListCodec<{ readonly next: string | undefined; readonly config: Config }, Node>,
  newNode: (key: string, next: string | undefined, terms: Terms) => Node,
) {
  type Head = { readonly next: string | undefined; readonly config: Config };
  return {
    initParts: (script: ListScript, initUtxo: OgmiosUtxo, key: string, config: Config, terms: Terms): ExtraParts =>
      listInitParts(codec, script, initUtxo, { next: key, config }, newNode(key, undefined, terms), config.deployer),
    insertParts: (
      script: ListScript,
      pred: ListPredecessor<Head, Node>,
      key: string,
      inserter: string,
      terms: Terms,
      coinsPerByte: bigint,
    ): ExtraParts => listInsertParts(codec, script, pred, newNode(key, pred.datum.next, terms), inserter, coinsPerByte),
  };
}

/**
 * The transition of one node (Claim, Redeem): the node spent with `redeemer` and re-created as `recreated`
 * (keeping its ADA), `minted` under the list's policy with the same redeemer, the node's re-creation first among
 * the outputs, then `outputs`; `signer` signs.
 */
export function nodeTransitionParts<Node extends { readonly key: string }>(
  codec: Pick<ListCodec<never, Node & { readonly next: string | undefined }>, "nodeTokenName" | "encodeNode">,
  script: ListScript,
  node: { readonly utxo: OgmiosUtxo; readonly recreated: Node & { readonly next: string | undefined } },
  t: {
    readonly redeemer: string;
    readonly minted: Record<string, bigint>;
    readonly outputs: readonly OutputSpec[];
    readonly referenceInputs?: OgmiosUtxo[];
    readonly signer: string;
  },
  coinsPerByte: bigint,
): ExtraParts {
  const recreated = listOutput(script, codec.nodeTokenName(node.recreated.key), codec.encodeNode(node.recreated));
  return {
    scriptInputs: [{ utxo: node.utxo, script: listScriptWitness(script), redeemer: t.redeemer }],
    ...(t.referenceInputs ? { referenceInputs: t.referenceInputs } : {}),
    mints: [{ policy: listScriptWitness(script), redeemer: t.redeemer, assets: t.minted }],
    outputs: [keepingAda(recreated, node.utxo, coinsPerByte), ...t.outputs],
    requiredSigners: [t.signer],
  };
}
