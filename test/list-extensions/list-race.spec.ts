/**
 * Racing list transactions on the embedded mesh, wallets signing for real, for each list extension (fractionized,
 * tokenizable: the list kit's build log and rebuilds, the submitter's 409): two inserts built on one predecessor
 * before either is submitted both land — the loser through the replacement its 409 carries —, a build beaten by a
 * block is rebuilt from the chain event and kept at GET /pending/{txHash} (and announced as `extension.rebuilt`,
 * docs/events.md), and an insert built on a rolled-back insert that cannot land again is rebuilt on the list without it.
 */
import { expect } from "chai";
import { decodeTx, txIdOf } from "../../shared/csl";
import type { PublicEvent } from "../../shared/events/event-types";
import type { ServiceName } from "../../shared/mesh/service-names";
import type { Wallet } from "../../shared/wallet";
import { errorBody, http, pollUntil, postJson } from "../../fixtures/mesh/helpers";
import { defaultBootstrap } from "../../fixtures/onchain/protocol-fixture";
import { ISSUANCE_SERVICES, IssuanceWorld } from "../../fixtures/issuance/issuance-world";

const key = (byte: number) => byte.toString(16).padStart(2, "0").repeat(32);

/** What differs between the list extensions here: their service, route and the fields of a CREATE. */
interface ListExtensionCase {
  readonly service: ServiceName;
  readonly api: string;
  /** a CREATE's own fields for the key `k` */
  terms(k: string, actors: { alice: Wallet; bob: Wallet }): Record<string, unknown>;
  /** the Init's config, open to alice's and bob's inserts */
  config(actors: { alice: Wallet; bob: Wallet }): Record<string, unknown>;
}

const CASES: readonly ListExtensionCase[] = [
  {
    service: "fractionized",
    api: "/extension/fractionized-certificate",
    terms: (k) => ({ key: k, totalAmount: 5, claimants: [] }),
    config: ({ alice, bob }) => ({ allowedInserters: [alice.paymentKeyHash, bob.paymentKeyHash] }),
  },
  {
    service: "tokenizable",
    api: "/extension/tokenizable-certificate",
    terms: (k, { bob }) => ({ certificate: { hash: k }, ownerPubKeyHash: bob.paymentKeyHash }),
    config: ({ alice, bob }) => ({
      deployer: alice.paymentKeyHash,
      allowedInserters: [alice.paymentKeyHash, bob.paymentKeyHash],
      cip68ScriptAddress: null,
    }),
  },
];

for (const ext of CASES)
  describe(`${ext.service} certificates: racing transactions on one list`, function () {
    this.timeout(300_000);
    const API = ext.api;
    let w: IssuanceWorld;
    let alice: Wallet;
    let bob: Wallet;
    let list: { initUtxoTxHash: string; initUtxoOutputIndex: number };
    let query = "";

    const create = (wallet: Wallet, k: string) =>
      postJson(`${w.mesh.api}${API}/build`, { type: "CREATE", ...list, senderAddress: wallet.address, ...ext.terms(k, { alice, bob }) });
    const submit = (unsigned: string, signer: Wallet) =>
      postJson(`${w.mesh.api}/transaction/submit`, { transaction: signer.signTxFull(unsigned) });
    const statusOf = async (k: string): Promise<{ exists: boolean; next: string | null }> =>
      (await http(`${w.mesh.api}${API}/status/${k}?${query}`)).json as { exists: boolean; next: string | null };
    /** The `extension.rebuilt` event of the build `previous`, once the events service has it. */
    const rebuiltEvent = (previous: string) =>
      pollUntil(async () => {
        const page = await w.mesh.broker.call<{ events: PublicEvent[] }, Record<string, unknown>>("events.after", {
          after: "0",
          types: ["extension.rebuilt"],
          subjects: [`transaction:${previous}`],
        });
        return page.events[0] as PublicEvent<"extension.rebuilt"> | undefined;
      }, `extension.rebuilt of ${previous}`);
    /** The keys in order, walking `next` from the first key of the list. */
    const keysInOrder = async (): Promise<string[]> => {
      const keys: string[] = [];
      let k: string | null = key(0x10);
      while (k !== null && keys.length < 20) {
        const s = await statusOf(k);
        if (!s.exists) break;
        keys.push(k);
        k = s.next;
      }
      return keys;
    };

    before(async () => {
      w = await IssuanceWorld.create([...ISSUANCE_SERVICES, ext.service, "events"]);
      ({ alice, bob } = w.f.actors);
      await w.f.mintBootstrap(defaultBootstrap(w.f.actors, { fee: 0n, transactionLimit: 1000n }));
      await pollUntil(
        async () => ((await w.mesh.broker.call<unknown[], { name?: string }>("indexer.bootstraps", {})).length > 0 ? true : undefined),
        "bootstrap",
      );
      for (const wallet of [alice, bob]) await w.ensureCollateral(wallet);
      const init = w.f.chain
        .utxosAt(alice.address)
        .filter((u) => Object.keys(u.value).length === 1)
        .sort((a, b) => (BigInt(b.value.ada.lovelace) > BigInt(a.value.ada.lovelace) ? 1 : -1))[0]!;
      list = { initUtxoTxHash: init.transaction.id, initUtxoOutputIndex: init.index };
      query = `initUtxoTxHash=${init.transaction.id}&initUtxoOutputIndex=${init.index}`;
      const res = await postJson(`${w.mesh.api}${API}/build`, {
        type: "CREATE",
        ...list,
        senderAddress: alice.address,
        config: ext.config({ alice, bob }),
        ...ext.terms(key(0x10), { alice, bob }),
      });
      expect(res.status, res.text).to.equal(200);
      await w.confirm(await w.signAndSubmit(res.text, [alice]));
      await pollUntil(async () => ((await statusOf(key(0x10))).exists ? true : undefined), "the list");
    });
    after(async () => w?.close());

    it("two inserts built on one predecessor both land: the second submission answers 409 with a replacement built on the first", async () => {
      const a = await create(alice, key(0x50));
      const b = await create(bob, key(0x60));
      expect([a.status, b.status], `${a.text} ${b.text}`).to.deep.equal([200, 200]);
      // both spend node 0x10
      const spent = (hex: string) => decodeTx(hex).inputs.map((i) => `${i.txHash}#${i.index}`);
      expect(spent(a.text).filter((r) => spent(b.text).includes(r))).to.have.length.greaterThan(0);

      const first = await submit(a.text, alice);
      expect(first.status, first.text).to.equal(200);
      const lost = await submit(b.text, bob);
      expect(lost.status, lost.text).to.equal(409);
      const body = errorBody(lost) as { error: string; rebuiltTransaction?: string };
      expect(body.error).to.equal("INPUTS_IN_FLIGHT");
      expect(body.rebuiltTransaction).to.match(/^[0-9a-f]+$/);
      const aliceTx = (first.json as { transactionHash: string }).transactionHash;
      expect(decodeTx(body.rebuiltTransaction!).inputs.map((i) => i.txHash)).to.include(aliceTx);

      const pending = await http(`${w.mesh.api}${API}/pending/${txIdOf(b.text)}`);
      expect(pending.status, pending.text).to.equal(200);
      expect((pending.json as { rebuiltTransaction: string }).rebuiltTransaction).to.equal(body.rebuiltTransaction);
      expect((await http(`${w.mesh.api}${API}/pending/${aliceTx}`)).status).to.equal(404);

      expect((await rebuiltEvent(txIdOf(b.text))).data.unsignedTransaction).to.equal(body.rebuiltTransaction);
      const second = await submit(body.rebuiltTransaction!, bob);
      expect(second.status, second.text).to.equal(200);
      await w.confirm((second.json as { transactionHash: string }).transactionHash);
      const keys = await pollUntil(async () => {
        const k = await keysInOrder();
        return k.length === 3 ? k : undefined;
      }, "both inserts");
      expect(keys).to.deep.equal([key(0x10), key(0x50), key(0x60)]);
    });

    it("a build beaten by a block is rebuilt from the chain event and kept at GET /pending/{txHash}", async () => {
      const a = await create(alice, key(0x70));
      const b = await create(bob, key(0x80));
      expect([a.status, b.status], `${a.text} ${b.text}`).to.deep.equal([200, 200]);
      const beaten = txIdOf(b.text);
      expect((await http(`${w.mesh.api}${API}/pending/${beaten}`)).status).to.equal(404);
      // alice's insert lands first; bob never submitted his
      await w.confirm(await w.signAndSubmit(a.text, [alice]));
      const rebuilt = await pollUntil(async () => {
        const res = await http(`${w.mesh.api}${API}/pending/${beaten}`);
        return res.status === 200 ? (res.json as { rebuiltTransaction: string }).rebuiltTransaction : undefined;
      }, "the rebuilt insert");
      const announced = await rebuiltEvent(beaten);
      expect(announced.data).to.deep.equal({
        extension: ext.service,
        policyId: b.headers.get("x-policy-id"),
        previousTransactionHash: beaten,
        transactionHash: txIdOf(rebuilt),
        unsignedTransaction: rebuilt,
      });
      expect(announced.subjects).to.deep.equal([`list:${b.headers.get("x-policy-id")}`, `transaction:${beaten}`]);
      expect(announced.block).to.equal(null);
      const landed = await submit(rebuilt, bob);
      expect(landed.status, landed.text).to.equal(200);
      await w.confirm((landed.json as { transactionHash: string }).transactionHash);
      const keys = await pollUntil(async () => {
        const k = await keysInOrder();
        return k.length === 5 ? k : undefined;
      }, "both inserts");
      expect(keys).to.deep.equal([key(0x10), key(0x50), key(0x60), key(0x70), key(0x80)]);
      // the original transaction can no longer be submitted: its entry is gone, and the answer offers the same replacement
      const stale = await submit(b.text, bob);
      expect(stale.status, stale.text).to.equal(409);
      expect(errorBody(stale)).to.include({ error: "ENTRY_TAKEN", rebuiltTransaction: rebuilt });
    });

    it("an insert built on a rolled-back insert that cannot land again is rebuilt on the list without it", async () => {
      const a = await create(alice, key(0x90));
      expect(a.status, a.text).to.equal(200);
      const aTx = await w.signAndSubmit(a.text, [alice]);
      await w.confirm(aTx);
      await pollUntil(async () => ((await keysInOrder()).length === 6 ? true : undefined), "0x90 recorded");
      // built on 0x90's confirmed node, submitted, still waiting for a block
      const b = await create(alice, key(0xa0));
      expect(b.status, b.text).to.equal(200);
      expect(decodeTx(b.text).inputs.map((i) => i.txHash)).to.include(aTx);
      const dependent = await w.signAndSubmit(b.text, [alice]);
      // both outlive their validity interval, then the block holding 0x90 is rolled back: neither can land again
      w.f.chain.advanceSlots(700);
      w.f.chain.devnet.rollback(1);
      await pollUntil(async () => ((await keysInOrder()).includes(key(0x90)) ? undefined : true), "0x90 rolled back");
      w.f.chain.devnet.produceBlock();
      const rebuilt = await pollUntil(async () => {
        const res = await http(`${w.mesh.api}${API}/pending/${dependent}`);
        return res.status === 200 ? (res.json as { rebuiltTransaction: string }).rebuiltTransaction : undefined;
      }, "the rebuilt dependent insert");
      expect(decodeTx(rebuilt).inputs.map((i) => i.txHash)).to.not.include(aTx);
      const landed = await submit(rebuilt, alice);
      expect(landed.status, landed.text).to.equal(200);
      await w.confirm((landed.json as { transactionHash: string }).transactionHash);
      const keys = await pollUntil(async () => {
        const k = await keysInOrder();
        return k.includes(key(0xa0)) ? k : undefined;
      }, "the rebuilt insert landed");
      expect(keys).to.deep.equal([key(0x10), key(0x50), key(0x60), key(0x70), key(0x80), key(0xa0)]);
    });
  });
