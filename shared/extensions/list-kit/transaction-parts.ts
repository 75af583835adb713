/**
 * Building blocks of list transitions, for any kind of list: the parts a transition adds to a base transaction
 * (the anchoring certificate transaction, or a plain payment), list outputs, and re-created entries keeping
 * their ADA.
 */
import type { MintSpec, PlutusScriptWitness, ScriptInputSpec } from "../../csl/build-tx";
import { outputFrom, type OutputSpec } from "../../csl/outputs";
import type { OgmiosUtxo } from "../../csl/utxo";
import { type Data, dataToCborHex, type PolicyScript } from "../../protocol";
import type { BuildSpec } from "../../issuance/evaluated-build";

/** The parts a transition adds to a base transaction. */
export interface ListParts {
  keyInputs?: OgmiosUtxo[];
  scriptInputs?: ScriptInputSpec[];
  referenceInputs?: OgmiosUtxo[];
  mints: MintSpec[];
  outputs: OutputSpec[];
  requiredSigners: string[];
}

/** An output at the list's address holding one of its tokens, with an inline datum. */
export function listOutput(script: { address: string; policyId: string }, tokenName: string, datum: Data, lovelace?: bigint): OutputSpec {
  return {
    address: script.address,
    assets: { [script.policyId]: { [tokenName]: 1n } },
    inlineDatum: dataToCborHex(datum),
    ...(lovelace !== undefined ? { lovelace } : {}),
  };
}

/** A re-created entry keeps at least its ADA, topped up to the min-ADA of its (possibly larger) datum. */
export function keepingAda(out: OutputSpec, old: OgmiosUtxo, coinsPerByte: bigint): OutputSpec {
  const min = BigInt(
    outputFrom({ ...out, lovelace: undefined }, coinsPerByte)
      .amount()
      .coin()
      .to_str(),
  );
  const kept = BigInt(old.value.ada.lovelace);
  return { ...out, lovelace: kept > min ? kept : min };
}

const refKey = (u: OgmiosUtxo) => `${u.transaction.id}#${u.index}`;

/** The base transaction plus the list's parts (the list's outputs first). */
export function combine(base: BuildSpec, parts: ListParts): BuildSpec {
  const spent = new Set((parts.scriptInputs ?? []).map((s) => refKey(s.utxo)));
  const keyInputs = [...(base.keyInputs ?? []), ...(parts.keyInputs ?? [])];
  return {
    ...base,
    utxos: base.utxos.filter((u) => !spent.has(refKey(u))),
    keyInputs: [...new Map(keyInputs.map((u) => [refKey(u), u])).values()],
    scriptInputs: [...(parts.scriptInputs ?? []), ...(base.scriptInputs ?? [])],
    referenceInputs: [...(base.referenceInputs ?? []), ...(parts.referenceInputs ?? [])],
    mints: [...(base.mints ?? []), ...parts.mints],
    outputs: [...parts.outputs, ...(base.outputs ?? [])],
    requiredSigners: [...new Set([...(base.requiredSigners ?? []), ...parts.requiredSigners])],
  };
}

/** A list's script, attached to each transaction that runs it (every list has its own: the init out-ref is its parameter). */
export type ListScript = PolicyScript & { readonly headTokenName: string };

export const listScriptWitness = (script: ListScript): PlutusScriptWitness => ({ language: "plutus:v3", cbor: script.code });

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
export function listInitParts<
  Head extends { readonly next: string | undefined },
  Node extends { readonly key: string; readonly next: string | undefined },
>(codec: ListCodec<Head, Node>, script: ListScript, initUtxo: OgmiosUtxo, head: Head, first: Node, deployer: string): ListParts {
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
export function listInsertParts<
  Head extends { readonly next: string | undefined },
  Node extends { readonly key: string; readonly next: string | undefined },
>(
  codec: ListCodec<Head, Node>,
  script: ListScript,
  pred: ListPredecessor<Head, Node>,
  inserted: Node,
  inserter: string,
  coinsPerByte: bigint,
): ListParts {
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
    initParts: (script: ListScript, initUtxo: OgmiosUtxo, key: string, config: Config, terms: Terms): ListParts =>
      listInitParts(codec, script, initUtxo, { next: key, config }, newNode(key, undefined, terms), config.deployer),
    insertParts: (
      script: ListScript,
      pred: ListPredecessor<Head, Node>,
      key: string,
      inserter: string,
      terms: Terms,
      coinsPerByte: bigint,
    ): ListParts => listInsertParts(codec, script, pred, newNode(key, pred.datum.next, terms), inserter, coinsPerByte),
  };
}
