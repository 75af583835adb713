/**
 * The generic off-chain sorted list (shared/extensions/list-kit/list-view.ts, shared/sorted-list): the predecessor walk and the rollback-safe record of
 * lists built from block transactions. The record is fed Ogmios-shaped transactions of a small test layout
 * (keys in a `Constr`-free datum text), so these tests pin the bookkeeping; the fractionized HTTP tests run the
 * same store on the real chain.
 */
import { expect } from "chai";
import type { Transaction } from "@cardano-ogmios/schema";
import { createStore, type Store } from "../../../shared/store";
import { SortedListStore, type EntryLinks, type SortedListLayout } from "../../../shared/sorted-list";
import {
  findNode,
  findPredecessor,
  listEntryOf,
  isSorted,
  keysInOrder,
  snapshotOf,
  type ListEntry,
} from "../../../shared/extensions/list-kit/list-view";
import { outRefKey } from "../../../shared/domain/out-ref";
import { DataHash, PolicyId, TxHash } from "../../../shared/domain/hex";

const PREFIX = "544c54"; // "TLT"
const POLICY = PolicyId("ab".repeat(28));
const ADDRESS = "addr_test1_list";
const INIT_TX = TxHash("01".repeat(32));

/** Test datum: "h:<next>" for the HEAD, "n:<key>:<next>" for a node, hex-encoded text. */
const datumOf = (links: EntryLinks): string =>
  Buffer.from(links.kind === "head" ? `h:${links.next ?? ""}` : `n:${links.key}:${links.next ?? ""}`).toString("hex");
const layout: SortedListLayout = {
  name: "testlist",
  list: { prefix: PREFIX },
  decodeLinks(cbor) {
    const [kind, a, b] = Buffer.from(cbor, "hex").toString().split(":");
    if (kind === "h") return { kind: "head", next: a || undefined };
    if (kind === "n" && a) return { kind: "node", key: a, next: b || undefined };
    return undefined;
  },
  policyOf: (ref) => (ref.txHash === INIT_TX && ref.index === 0 ? POLICY : "cd".repeat(28)),
  issuerOf: () => "ee".repeat(28),
};
const nodeToken = (key: string) => PREFIX + key.slice(0, 8);

let txCount = 0;
function tx(
  inputs: string[],
  outputs: { token: string; links: EntryLinks; address?: string }[],
  mint: Record<string, bigint> = {},
): Transaction {
  txCount += 1;
  return {
    id: txCount.toString(16).padStart(64, "0"),
    spends: "inputs",
    inputs: inputs.map((k) => ({ transaction: { id: k.split("#")[0]! }, index: Number(k.split("#")[1]) })),
    outputs: outputs.map((o) => ({
      address: o.address ?? ADDRESS,
      value: { ada: { lovelace: 2_000_000n }, [POLICY]: { [o.token]: 1n } },
      datum: datumOf(o.links),
    })),
    ...(Object.keys(mint).length > 0 ? { mint: { [POLICY]: mint } } : {}),
  } as unknown as Transaction;
}
const ref = (t: Transaction, index: number) => outRefKey({ txHash: t.id, index });

describe("sorted list (off chain): predecessor walk and the rollback-safe record", () => {
  let store: Store;
  let lists: SortedListStore;
  const k = (n: number) => DataHash(n.toString(16).padStart(2, "0").repeat(32));

  beforeEach(async () => {
    store = await createStore({ inMemory: true });
    lists = await SortedListStore.open(store, layout);
  });
  afterEach(() => store.close());

  const current = async (): Promise<ListEntry[]> => (await lists.currentEntries(POLICY)).map((e) => listEntryOf(POLICY, e));

  it("records an Init, inserts and a re-created node, walks them in byte order, and keeps each token's origin", async () => {
    const init = tx(
      [`${INIT_TX}#0`],
      [
        { token: PREFIX, links: { kind: "head", next: k(0x50) } },
        { token: nodeToken(k(0x50)), links: { kind: "node", key: k(0x50), next: undefined } },
      ],
      {
        [PREFIX]: 1n,
        [nodeToken(k(0x50))]: 1n,
      },
    );
    expect(await lists.recordBlock({ slot: 10, height: 1, transactions: [init] })).to.equal(2);
    expect(await lists.listByPolicy(POLICY)).to.deep.include({
      policyId: POLICY,
      address: ADDRESS,
      txHash: init.id,
      slot: 10,
      blockHeight: 1,
    });
    expect(await lists.listByInitRef({ txHash: INIT_TX, index: 0 })).to.deep.include({ policyId: POLICY });

    // insert 0x20 before every key: spends the HEAD
    const before = tx(
      [ref(init, 0)],
      [
        { token: PREFIX, links: { kind: "head", next: k(0x20) } },
        { token: nodeToken(k(0x20)), links: { kind: "node", key: k(0x20), next: k(0x50) } },
      ],
      {
        [nodeToken(k(0x20))]: 1n,
      },
    );
    // a node re-created without a mint (a claim) keeps the origin of its first output
    const claim = tx([ref(init, 1)], [{ token: nodeToken(k(0x50)), links: { kind: "node", key: k(0x50), next: undefined } }]);
    await lists.recordBlock({ slot: 20, height: 2, transactions: [before, claim] });

    const snap = snapshotOf(await current())!;
    expect(keysInOrder(snap)).to.deep.equal([k(0x20), k(0x50)]);
    expect(isSorted(keysInOrder(snap))).to.equal(true);
    expect(findNode(snap, k(0x50))!.origin).to.deep.equal({ txHash: init.id, blockHeight: 1, slot: 10 });
    expect(findNode(snap, k(0x50))!.utxo.transaction.id).to.equal(claim.id);
    expect(findNode(snap, k(0x20))!.origin).to.deep.equal({ txHash: before.id, blockHeight: 2, slot: 20 });

    const mid = findPredecessor(snap, k(0x30));
    expect("entry" in mid && mid.entry.key).to.equal(k(0x20));
    expect("entry" in mid && mid.next).to.equal(k(0x50));
    const first = findPredecessor(snap, k(0x10));
    expect("entry" in first && first.entry.key).to.equal(null);
    const last = findPredecessor(snap, k(0x60));
    expect("entry" in last && last.entry.key).to.equal(k(0x50));
    expect("entry" in last && last.next).to.equal(undefined);
    expect(findPredecessor(snap, k(0x50))).to.have.property("duplicate");
  });

  it("records staged blocks in one flush exactly as block by block: entries created and spent within the batch, origins kept", async () => {
    const init = tx(
      [`${INIT_TX}#0`],
      [
        { token: PREFIX, links: { kind: "head", next: k(0x50) } },
        { token: nodeToken(k(0x50)), links: { kind: "node", key: k(0x50), next: undefined } },
      ],
      { [PREFIX]: 1n, [nodeToken(k(0x50))]: 1n },
    );
    const insert = tx(
      [ref(init, 1)],
      [
        { token: nodeToken(k(0x50)), links: { kind: "node", key: k(0x50), next: k(0x60) } },
        { token: nodeToken(k(0x60)), links: { kind: "node", key: k(0x60), next: undefined } },
      ],
      { [nodeToken(k(0x60))]: 1n },
    );
    // a claim of the node the insert re-created, two blocks later in the same batch
    const claim = tx([ref(insert, 0)], [{ token: nodeToken(k(0x50)), links: { kind: "node", key: k(0x50), next: k(0x60) } }]);
    const blocks = [
      { slot: 10, height: 1, transactions: [init] },
      { slot: 11, height: 2, transactions: [] },
      { slot: 20, height: 3, transactions: [insert] },
      { slot: 30, height: 4, transactions: [claim] },
      { slot: 40, height: 5, transactions: [insert] },
    ];
    const otherStore = await createStore({ inMemory: true });
    const oneByOne = await SortedListStore.open(otherStore, layout);
    for (const b of blocks.slice(0, 4)) await oneByOne.recordBlock(b);
    // the last block is staged, then rolled back before any write: it never reaches the store
    for (const b of blocks) lists.stageBlock(b);
    await lists.rollback(30);
    expect(await lists.listByPolicy(POLICY)).to.equal(undefined);
    expect(await lists.flush()).to.equal(7);

    const entries = await lists.currentEntries(POLICY);
    expect(entries).to.deep.equal(await oneByOne.currentEntries(POLICY));
    expect(entries.map((e) => [e.outRef.txHash, e.origin.txHash])).to.have.deep.members([
      [init.id, init.id],
      [claim.id, init.id],
      [insert.id, insert.id],
    ]);
    await otherStore.close();
  });

  it("ignores outputs without exactly one list token, lists whose policy no input derives, and failed transactions", async () => {
    const foreign = tx([`${"02".repeat(32)}#0`], [{ token: PREFIX, links: { kind: "head", next: undefined } }], { [PREFIX]: 1n });
    const failed = {
      ...tx([`${INIT_TX}#0`], [{ token: PREFIX, links: { kind: "head", next: undefined } }], { [PREFIX]: 1n }),
      spends: "collaterals",
    } as Transaction;
    await lists.recordBlock({ slot: 5, height: 1, transactions: [foreign, failed] });
    expect(await lists.listByPolicy(POLICY)).to.equal(undefined);
    const init = tx([`${INIT_TX}#0`], [{ token: PREFIX, links: { kind: "head", next: undefined } }], { [PREFIX]: 1n });
    // at the list address but a node datum under the HEAD token: not an entry
    const junk = tx([], [{ token: PREFIX, links: { kind: "node", key: k(1), next: undefined } }]);
    await lists.recordBlock({ slot: 6, height: 2, transactions: [init, junk] });
    const entries = await current();
    expect(entries.map((e) => e.utxo.transaction.id)).to.deep.equal([init.id]);
  });

  it("rolls back: entries created after the point vanish, entries spent after it are current again", async () => {
    const init = tx(
      [`${INIT_TX}#0`],
      [
        { token: PREFIX, links: { kind: "head", next: k(0x50) } },
        { token: nodeToken(k(0x50)), links: { kind: "node", key: k(0x50), next: undefined } },
      ],
      {
        [PREFIX]: 1n,
        [nodeToken(k(0x50))]: 1n,
      },
    );
    await lists.recordBlock({ slot: 10, height: 1, transactions: [init] });
    const insert = tx(
      [ref(init, 1)],
      [
        { token: nodeToken(k(0x50)), links: { kind: "node", key: k(0x50), next: k(0x60) } },
        { token: nodeToken(k(0x60)), links: { kind: "node", key: k(0x60), next: undefined } },
      ],
      {
        [nodeToken(k(0x60))]: 1n,
      },
    );
    await lists.recordBlock({ slot: 20, height: 2, transactions: [insert] });
    expect(keysInOrder(snapshotOf(await current())!)).to.deep.equal([k(0x50), k(0x60)]);

    await lists.rollback(10);
    const after = snapshotOf(await current())!;
    expect(keysInOrder(after)).to.deep.equal([k(0x50)]);
    expect(findNode(after, k(0x50))!.utxo.transaction.id).to.equal(init.id);

    // an interrupted attempt at slot 20 is undone by the indexer's repair (a rollback to the checkpoint, slot 10)
    await lists.recordBlock({ slot: 20, height: 2, transactions: [insert] });
    await lists.rollback(10);
    await lists.recordBlock({ slot: 20, height: 2, transactions: [insert] });
    expect((await current()).length).to.equal(3);
    expect(findNode(snapshotOf(await current())!, k(0x50))!.origin).to.include({ txHash: init.id, slot: 10 });

    await lists.rollback(-1);
    expect(await lists.listByPolicy(POLICY)).to.equal(undefined);
    expect(await current()).to.deep.equal([]);

    // list outputs before any Init count for nothing; the Init recorded again brings back the list and its entries
    expect(await lists.recordBlock({ slot: 5, height: 1, transactions: [insert] })).to.equal(0);
    expect(await lists.recordBlock({ slot: 10, height: 2, transactions: [init] })).to.equal(2);
    expect((await lists.listByPolicy(POLICY))?.address).to.equal(ADDRESS);
    expect(keysInOrder(snapshotOf(await current())!)).to.deep.equal([k(0x50)]);
  });
});
