/**
 * The indexer's `chain.block` and `chain.rollback` notifications are the payloads of the published NATS contract
 * (shared/records/published-events.ts): the compiler ties their type to the contract's fields, and here every payload
 * the indexer sends while following the devnet through blocks, a rollback and the re-included block is checked
 * against the contract's JSON Schemas, with exactly the fields they list.
 */
import type { Transaction } from "@cardano-ogmios/schema";
import Ajv from "ajv";
import { expect } from "chai";
import { Indexer } from "../../shared/indexer/indexer";
import { PluginPipeline } from "../../shared/indexer/plugin-pipeline";
import { slotToTimeFrom } from "../../shared/indexer/slot-time";
import { CHAIN_BLOCK, CHAIN_ROLLBACK, type ChainBlockEvent, type ChainRollbackEvent } from "../../shared/records/published-events";
import { scriptAddressOf } from "../../shared/protocol";
import { createStore, type Store } from "../../shared/store";
import { pollUntil } from "../../fixtures/mesh/helpers";
import { startHarness, type Harness } from "../chain/support/devnet-harness";

const view = {
  proxyPolicyId: "a1".repeat(28),
  proxyAddress: scriptAddressOf("a1".repeat(28), 0),
  pointerTokenName: "e5".repeat(32),
  stateScriptHashes: new Set<string>(),
  libraryAddress: scriptAddressOf("99".repeat(28), 0),
  libraryAdmin: "d4".repeat(28),
};

type Notice = { event: "chain.block"; payload: ChainBlockEvent } | { event: "chain.rollback"; payload: ChainRollbackEvent };

describe("indexer: its chain notifications are the published contract's payloads", function () {
  let h: Harness;
  let store: Store;

  before(async () => {
    h = await startHarness();
    store = await createStore({ inMemory: true });
  });
  after(async () => {
    await store.close();
    await h.close();
  });

  it("sends blocks, a rollback and the re-included block, each valid against its schema, in chain order", async () => {
    const notices: Notice[] = [];
    const indexer = await Indexer.create({
      store,
      chain: h.client,
      view,
      pipeline: new PluginPipeline<Transaction>(),
      slotToTime: slotToTimeFrom(await h.client.eraSummaries(), (await h.client.networkStartTime()).getTime()),
      notify: (event, payload) => {
        if (event === "chain.block" || event === "chain.rollback") notices.push({ event, payload } as Notice);
      },
      retryDelayMs: 50,
    });
    await indexer.start();
    const kept = await h.payAndProduce();
    const dropped = await h.payAndProduce();
    await pollUntil(async () => (notices.some((n) => n.payload.id === dropped.id) ? true : undefined), "the second block's notice");
    h.devnet.rollback(1);
    await pollUntil(async () => (notices.at(-1)?.event === "chain.rollback" ? true : undefined), "the rollback's notice");
    h.advance(1_000);
    const again = h.devnet.produceBlock()!;
    expect(again.id).to.not.equal(dropped.id);
    await pollUntil(async () => (notices.some((n) => n.payload.id === again.id) ? true : undefined), "the re-included block's notice");
    await indexer.stop();

    const ajv = new Ajv({ allErrors: true });
    const schemas = { "chain.block": ajv.compile(CHAIN_BLOCK.schema), "chain.rollback": ajv.compile(CHAIN_ROLLBACK.schema) };
    for (const n of notices) {
      const validate = schemas[n.event];
      expect(validate(n.payload), `${n.event} ${JSON.stringify(n.payload)}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
      expect(Object.keys(n.payload).sort(), n.event).to.deep.equal([...(validate.schema as { required: string[] }).required].sort());
    }
    // the start's intersection (origin: nothing indexed yet), the two blocks, the rollback to the first, the new block
    const shape = notices.map((n) => (n.event === "chain.block" ? `block ${n.payload.id}` : `rollback ${n.payload.slot} ${n.payload.id}`));
    expect(shape).to.deep.equal([
      "rollback -1 origin",
      `block ${kept.id}`,
      `block ${dropped.id}`,
      `rollback ${kept.slot} ${kept.id}`,
      `block ${again.id}`,
    ]);
    const blocks = notices.flatMap((n) => (n.event === "chain.block" ? [n.payload] : []));
    expect(blocks.map((b) => b.slot)).to.deep.equal([kept.slot, dropped.slot, again.slot]);
    expect(blocks[2]!.height, "after the rollback, the height follows the point rolled back to").to.equal(blocks[0]!.height + 1);
    expect(blocks[0]!.transactionIds).to.deep.equal([kept.txId]);
    expect(blocks[2]!.transactionIds, "the rolled-back transaction is confirmed again").to.include(dropped.txId);
    const seqs = notices.map((n) => n.payload.lastSeq);
    expect(seqs, "lastSeq never decreases").to.deep.equal([...seqs].sort((a, b) => a - b));
  });
});
