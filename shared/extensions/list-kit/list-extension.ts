/**
 * One list extension as the kit sees it, defined once from what makes it differ: its name and certificate marker,
 * its list's token prefix, its datum and redeemer codecs and its own refusals. From those come its refusals (as its
 * own error class), the request-field readers that refuse with them, its lists as builds read them, the codec of its
 * Init and Insert, and the layout the indexer records its lists with.
 */
import type { OutRef } from "../../domain/out-ref";
import { dataFromCborHex, dataToCborHex, type Data } from "../../protocol";
import type { SortedListLayout } from "../../sorted-list/layout";
import type { BaseListConfig } from "./list-datum";
import type { ListRefusals } from "./list-errors";
import { extensionLists, linksOfDatum, type ListDatumDecoder } from "./list-state";
import { listNodeTokenName, type SortedListId } from "./list-tokens";
import { requestFields } from "./request-fields";
import type { ListCodec } from "./transaction-parts";

/** What a list's HEAD and nodes hold at least. */
export interface ListHead {
  readonly next: string | undefined;
  readonly config: BaseListConfig;
}
export interface ListNode {
  readonly key: string;
  readonly next: string | undefined;
  readonly assetName: string;
}

export interface ListExtensionSpec<Name extends string, Head extends ListHead, Node extends ListNode, Own extends readonly string[]> {
  /** "fractionized", "tokenizable": its service, its lists' collections and plugin, its build hints' prefix */
  readonly name: Name;
  /** the extension marker its anchored certificates carry in their metadata */
  readonly marker: string;
  /** its refusals (listRefusals): the list's, then its own */
  readonly errors: ListRefusals<Own>;
  readonly list: SortedListId;
  readonly decode: ListDatumDecoder<Head, Node>;
  readonly encodeHead: (head: Head) => Data;
  readonly encodeNode: (node: Node) => Data;
  /** its Init or Insert redeemer for a key */
  readonly encodeIssueRedeemer: (action: "Init" | "Insert", key: string) => Data;
}

export function defineListExtension<
  const Name extends string,
  Head extends ListHead,
  Node extends ListNode,
  const Own extends readonly string[],
>(spec: ListExtensionSpec<Name, Head, Node, Own>) {
  const { errors } = spec;
  const { refuse } = errors;
  const codec: ListCodec<Head, Node> = {
    nodeTokenName: (key) => listNodeTokenName(spec.list, key),
    encodeHead: spec.encodeHead,
    encodeNode: spec.encodeNode,
    redeemer: (action, key) => dataToCborHex(spec.encodeIssueRedeemer(action, key)),
  };
  return {
    name: spec.name,
    marker: spec.marker,
    errorName: errors.errorName,
    errors,
    refuse,
    /** the request-field readers, refusing as the extension */
    fields: requestFields(refuse),
    /** its lists as builds and status read them */
    lists: extensionLists<Head, Node>({ label: spec.name, decode: spec.decode, refuse }),
    codec,
    /**
     * Its lists as the indexer records them: links read from the HEAD and node datums, the policy of an init output
     * reference (the extension's validator with that reference applied), the issuer = the deployer.
     */
    layoutOf(scripts: { of(initRef: OutRef): { readonly policyId: string } }): SortedListLayout {
      return {
        name: spec.name,
        list: spec.list,
        decodeLinks: linksOfDatum(spec.decode),
        policyOf: (initRef) => scripts.of(initRef).policyId,
        issuerOf(headDatumCbor: string): string {
          const d = spec.decode(dataFromCborHex(headDatumCbor));
          return d.kind === "head" ? d.config.deployer : "";
        },
      };
    },
  };
}
