/**
 * Protocol outputs at the proxy script with a stake credential: the validators check only the payment credential,
 * so a state, a bootstrap or the pointer may sit at a base address of the proxy script. The indexer must still
 * record them and the builders must still use them — an unseen pointer would blind the service.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { CSL } from "../../shared/csl/lib";
import { decodeTx } from "../../shared/csl";
import { encodeBootstrapDatum, encodeProxyDatum, stateIdOf } from "../../shared/protocol";
import type { StateInfo } from "../../shared/records/protocol-records";
import { http, pollUntil } from "../../fixtures/mesh/helpers";
import { certificatesFor, defaultBootstrap } from "../../fixtures/onchain/protocol-fixture";
import { IssuanceWorld } from "../../fixtures/issuance/issuance-world";
import type { Wallet } from "../../shared/wallet";

const cert = () => ({ hash: randomBytes(32).toString("hex"), metadata: { uv_tid: "notary" } });

describe("protocol outputs at the proxy script with a stake credential", function () {
  this.timeout(180_000);
  let w: IssuanceWorld;
  /** the proxy script as payment credential, `w`'s stake key as stake credential */
  const stakedProxy = (who: Wallet) =>
    CSL.BaseAddress.new(
      0,
      CSL.Credential.from_scripthash(CSL.ScriptHash.from_hex(w.f.scripts.proxy.hash)),
      CSL.Credential.from_keyhash(CSL.Ed25519KeyHash.from_hex(who.stakeKeyHash)),
    )
      .to_address()
      .to_bech32();
  const statesOf = (owner: Wallet) => w.mesh.broker.call<StateInfo[], { owner: string }>("indexer.states", { owner: owner.paymentKeyHash });
  const verified = (hash: string) =>
    pollUntil(async () => ((await http(`${w.mesh.api}/verify/${hash}`)).status === 200 ? true : undefined), `verify ${hash}`);
  const holdsAt = (address: string, name: string) =>
    w.f.chain.utxosAt(address).some((u) => ((u.value as Record<string, Record<string, bigint>>)[w.f.policy]?.[name] ?? 0n) > 0n);

  before(async () => {
    w = await IssuanceWorld.create();
    await w.f.mintBootstrap(defaultBootstrap(w.f.actors));
  });
  after(async () => w?.close());

  it("indexes a state forked to a staked proxy address and updates it there, also chained before confirmation", async () => {
    const alice = w.f.actors.alice;
    const address = stakedProxy(alice);
    const certificates = certificatesFor(alice, 1);
    const spec = w.f.mintStateSpec(alice, { certificates, stateOutput: { address } });
    const idSource = spec.keyInputs![0]!;
    const stateId = stateIdOf({ txHash: idSource.transaction.id, index: idSource.index });
    await w.f.chain.submit(spec, [alice]);
    const [state] = await pollUntil(async () => ((await statesOf(alice)).length === 1 ? statesOf(alice) : undefined), "alice's state");
    expect(state).to.deep.include({ stateId, address, countdown: "11" });
    await verified(certificates[0]!.hash);

    await w.ensureCollateral(alice);
    const first = cert();
    const one = await w.build({ type: "default", address: alice.address, certificates: [first] });
    expect(one.status, JSON.stringify(one.body.status)).to.equal(200);
    expect(one.body.status.message).to.match(/updated/);
    expect(decodeTx(one.body.unsignedTransaction!).outputs[0]!.address).to.equal(address);
    const oneTx = await w.signAndSubmit(one.body.unsignedTransaction!, [alice]);
    // the next build spends the pending state output, which sits at the staked address too
    const second = cert();
    const two = await w.build({ type: "default", address: alice.address, certificates: [second] });
    expect(two.status, JSON.stringify(two.body.status)).to.equal(200);
    expect(decodeTx(two.body.unsignedTransaction!).inputs.map((i) => i.txHash)).to.include(oneTx);
    const twoTx = await w.signAndSubmit(two.body.unsignedTransaction!, [alice]);
    await w.confirm(twoTx);
    await pollUntil(async () => ((await statesOf(alice))[0]?.countdown === "9" ? true : undefined), "countdown 9");
    expect(holdsAt(address, stateId)).to.equal(true);
    for (const c of [first, second]) await verified(c.hash);
  });

  it("forks from a bootstrap at a staked proxy address", async () => {
    const service = w.f.actors.service;
    const boot = defaultBootstrap(w.f.actors, { tokenName: Buffer.from("staked").toString("hex"), fee: 0n });
    const outputs = [w.f.tokenOutput(boot.tokenName, encodeBootstrapDatum(boot), { address: stakedProxy(service) })];
    await w.f.chain.submit(w.f.mintBootstrapSpec(boot, { outputs }), [service]);
    await pollUntil(
      async () =>
        (await w.mesh.broker.call<unknown[], { name: string }>("indexer.bootstraps", { name: "staked" })).length === 1 ? true : undefined,
      "bootstrap at the staked address indexed",
    );
    const bob = w.f.actors.bob;
    await w.ensureCollateral(bob);
    const c = cert();
    const { body } = await w.issue({ type: "custom", address: bob.address, certificates: [c], bootstrapDatum: { name: "staked" } }, [bob]);
    expect(body.status.message).to.match(/forked/);
    await verified(c.hash);
  });

  it("follows the pointer to a staked proxy address (an upgrade may put it there) and keeps building", async () => {
    const service = w.f.actors.service;
    const address = stakedProxy(service);
    const datum = encodeProxyDatum({ scriptPointer: w.f.scripts.state.hash, scriptOwner: service.paymentKeyHash });
    const outputs = [w.f.tokenOutput(w.f.scripts.pointerTokenName, datum, { address })];
    const { txId } = await w.f.chain.submit(w.f.upgradeSpec({ outputs }), [service]);
    await pollUntil(async () => {
      const p = await w.mesh.broker.call<{ pointer: { outRef: { txHash: string } } | null }>("indexer.protocol");
      return p.pointer?.outRef.txHash === txId ? true : undefined;
    }, "pointer at the staked address indexed");
    expect(holdsAt(address, w.f.scripts.pointerTokenName)).to.equal(true);
    const alice = w.f.actors.alice;
    const c = cert();
    const { body } = await w.issue({ type: "default", address: alice.address, certificates: [c] }, [alice]);
    expect(decodeTx(body.unsignedTransaction!).referenceInputs.map((r) => r.txHash)).to.include(txId);
    await verified(c.hash);
  });
});
