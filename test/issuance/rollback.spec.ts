/**
 * A rollback that removes a confirmed certificate transaction (issue #5): verify answers 404 again, the in-flight
 * registry releases nothing wrongly (an unrelated pending transaction keeps its inputs locked), and once the
 * transactions are back in a block everything verifies and issuing goes on.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { decodeTx } from "../../shared/csl";
import type { OgmiosUtxo } from "../../shared/csl/utxo";
import { http, pollUntil } from "../../fixtures/mesh/helpers";
import { IssuanceWorld } from "../../fixtures/issuance/issuance-world";

const cert = () => ({ hash: randomBytes(32).toString("hex"), metadata: { uv_tid: "notary" } });

describe("issuance: a rollback of a confirmed certificate transaction", function () {
  this.timeout(180_000);
  let w: IssuanceWorld;
  const status = async (hash: string) => (await http(`${w.mesh.api}/verify/${hash}`)).status;
  const verified = (hash: string) => pollUntil(async () => ((await status(hash)) === 200 ? true : undefined), `verify ${hash}`);

  before(async () => {
    w = await IssuanceWorld.create();
    await w.mintDefaultBootstrap();
  });
  after(() => w?.close());

  it("answers 404 for the rolled-back certificate, keeps unrelated locks, and lands everything once re-included", async () => {
    const { alice, bob } = w.f.actors;
    await w.ensureCollateral(alice);
    await w.ensureCollateral(bob);
    const a = cert();
    await w.issue({ type: "default", address: alice.address, certificates: [a] }, [alice]);
    const b = cert();
    await w.issue({ type: "default", address: alice.address, certificates: [b] }, [alice]); // confirmed in its own block
    await verified(b.hash);

    // Bob's transaction is submitted but not in a block yet when the rollback happens.
    const d = cert();
    const built = await w.build({ type: "default", address: bob.address, certificates: [d] });
    expect(built.body.status.code).to.equal("SUCCESS");
    const bobTx = await w.signAndSubmit(built.body.unsignedTransaction!, [bob]);
    const bobInputs = decodeTx(built.body.unsignedTransaction!).inputs.map((i) => `${i.txHash}#${i.index}`);

    w.f.chain.devnet.rollback(1);
    await pollUntil(async () => ((await status(b.hash)) === 404 ? true : undefined), "b gone after the rollback");
    expect(await status(a.hash)).to.equal(200);
    // Nothing of Bob's in-flight transaction was released: its inputs are still not spendable for a new build.
    const confirmed = w.f.chain.utxosAt(bob.address) as OgmiosUtxo[];
    const spendable = await w.registry.spendable(bob.address, confirmed, bob.paymentKeyHash);
    for (const input of bobInputs) expect(spendable.map((u) => `${u.transaction.id}#${u.index}`)).to.not.include(input);

    // The rolled-back transaction went back to the mempool: the next block confirms it and Bob's.
    await w.confirm(bobTx);
    await verified(b.hash);
    await verified(d.hash);
    const e = cert();
    await w.issue({ type: "default", address: alice.address, certificates: [e] }, [alice]);
    await verified(e.hash);
  });
});
