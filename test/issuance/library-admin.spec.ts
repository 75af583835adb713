/**
 * Library administration through HTTP: upgrade the proxy to a new state script (only a state script for this proxy,
 * unless forced), keep using states made before it, issue with the new script, and undeploy the script nobody points
 * at any more.
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { plutusScriptHash, singleWrapFlat } from "../../shared/csl";
import { deriveProtocolScripts, loadBlueprint } from "../../shared/protocol";
import { ALWAYS_SUCCEEDS_FLAT } from "../../fixtures/csl/fixtures";
import { http, postJson, pollUntil } from "../../fixtures/mesh/helpers";
import { defaultBootstrap } from "../../fixtures/onchain/protocol-fixture";
import { IssuanceWorld, type BuildBody } from "../../fixtures/issuance/issuance-world";

const certificate = () => ({ hash: randomBytes(32).toString("hex"), metadata: { uv_tid: "diploma" } });

describe("library: upgrade the proxy to a new state script, then undeploy the old one", function () {
  this.timeout(180_000);
  let w: IssuanceWorld;
  let newStateHash: string;
  let newStateCode: string;

  before(async () => {
    w = await IssuanceWorld.create(["gateway", "indexer", "verifier", "tx-builder", "submitter", "library"]);
    await w.f.mintBootstrap(defaultBootstrap(w.f.actors));
    // The same validator with one more bootstrap administrator: a different script hash, the same datums.
    const next = deriveProtocolScripts(loadBlueprint(), {
      proxyOneShot: { txHash: w.f.oneShot.transaction.id, index: w.f.oneShot.index },
      bootstrapAdministrators: [w.f.actors.service.paymentKeyHash, w.f.actors.bob.paymentKeyHash],
      libraryAdministrator: w.f.actors.service.paymentKeyHash,
      networkId: 0,
    });
    newStateHash = next.state.hash;
    newStateCode = next.state.code;
    expect(newStateHash).to.not.equal(w.f.scripts.state.hash);
    await w.bootstrapIndexed();
  });
  after(() => w?.close());

  const api = (path: string) => `${w.mesh.api}${path}`;
  const service = () => w.f.actors.service;

  it("refuses an upgrade body that names no script, with a 400 BuildTransactionResponse", async () => {
    const res = await http(api("/library/upgrade/proxy"), {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "not a script",
    });
    expect(res.status).to.equal(400);
    expect((res.json as BuildBody).status.code).to.equal("ERROR");
  });

  it("refuses a script that is not a state script for this proxy, naming the expected hash, unless forced", async () => {
    const always = singleWrapFlat(ALWAYS_SUCCEEDS_FLAT);
    const refused = await postJson(api("/library/upgrade/proxy"), JSON.stringify(always));
    expect(refused.status).to.equal(400);
    const body = refused.json as BuildBody & { message: string };
    expect(body.status.code).to.equal("ERROR");
    expect(body.message).to.contain(`Script ${plutusScriptHash(always)} is not a state script for this proxy`);
    expect(body.message).to.contain(`has hash ${w.f.scripts.state.hash}`); // the deployment's own administrators
    // the new administrators' script is refused too until they are named
    const unnamed = await postJson(api("/library/upgrade/proxy"), JSON.stringify(newStateCode));
    expect((unnamed.json as { message: string }).message).to.contain(`has hash ${w.f.scripts.state.hash}`);
    const badOption = await postJson(api("/library/upgrade/proxy?bootstrapAdministrators=xyz"), JSON.stringify(newStateCode));
    expect(badOption.status).to.equal(400);
    expect((badOption.json as { message: string }).message).to.match(/bootstrapAdministrators must be/);

    const forced = await postJson(api("/library/upgrade/proxy?force=true"), JSON.stringify(always));
    expect(forced.status, forced.text).to.equal(200);
    expect((forced.json as BuildBody).status.code).to.equal("SUCCESS");
  });

  it("upgrades: old states keep working, new certificates use the new state script", async () => {
    const alice = w.f.actors.alice;
    await w.ensureCollateral(alice);
    const before = certificate();
    await w.issue({ type: "default", address: alice.address, certificates: [before] }, [alice]);

    const administrators = [w.f.actors.service.paymentKeyHash, w.f.actors.bob.paymentKeyHash].join(",");
    const res = await postJson(api(`/library/upgrade/proxy?bootstrapAdministrators=${administrators}`), JSON.stringify(newStateCode));
    expect(res.status, res.text).to.equal(200);
    const upgrade = res.json as BuildBody;
    expect(upgrade.status.code).to.equal("SUCCESS");
    const txId = await w.signAndSubmit(upgrade.unsignedTransaction!, [service()]);
    await w.confirm(txId);
    await pollUntil(async () => {
      const p = await w.mesh.broker.call<{ pointer: { scriptPointer: string } }>("indexer.protocol");
      return p.pointer.scriptPointer === newStateHash ? true : undefined;
    }, "pointer moved to the new state script");

    // Alice's state was forked under the old script; the update goes through the new one.
    const after = certificate();
    const { txId: updateTx } = await w.issue({ type: "default", address: alice.address, certificates: [after] }, [alice]);
    const redeemers = await pollUntil(async () => {
      const r = await http(api(`/txs/${updateTx}/redeemers`));
      return r.status === 200 ? (r.json as { purpose: string; script_hash: string }[]) : undefined;
    }, "redeemers of the update");
    expect(
      redeemers.find((r) => r.purpose === "reward")?.script_hash ?? redeemers.find((r) => r.purpose === "withdraw")?.script_hash,
    ).to.equal(newStateHash);
    for (const c of [before, after])
      await pollUntil(async () => ((await http(api(`/verify/${c.hash}`))).status === 200 ? true : undefined), `verify ${c.hash}`);

    // A new user forks under the new script.
    const carol = w.f.actors.issuer;
    await w.ensureCollateral(carol);
    const fresh = certificate();
    await w.issue({ type: "default", address: carol.address, certificates: [fresh] }, [carol]);
    await pollUntil(async () => ((await http(api(`/verify/${fresh.hash}`))).status === 200 ? true : undefined), "new fork verified");

    const deployments = (await http(api("/library/deployments"))).json as { entries: { scriptHash: string; isActiveContract: boolean }[] };
    expect(deployments.entries.find((e) => e.scriptHash === newStateHash)?.isActiveContract).to.equal(true);
    expect(deployments.entries.find((e) => e.scriptHash === w.f.scripts.state.hash)?.isActiveContract).to.equal(false);
  });

  it("refuses to undeploy an active script, undeploys the unused one, then has nothing left to undeploy", async () => {
    const deployments = (await http(api("/library/deployments"))).json as {
      entries: { transactionHash: string; outputIndex: number; scriptHash: string }[];
    };
    const proxy = deployments.entries.find((e) => e.scriptHash === w.f.scripts.proxy.hash)!;
    const refused = await http(api(`/library/undeploy/${proxy.transactionHash}/${proxy.outputIndex}`));
    expect(refused.status).to.equal(400);
    expect((refused.json as BuildBody).status.message).to.match(/active contract/);

    const unused = await http(api("/library/undeploy/unused"));
    expect(unused.status, unused.text).to.equal(200);
    const txId = await w.signAndSubmit((unused.json as BuildBody).unsignedTransaction!, [service()]);
    await w.confirm(txId);
    await pollUntil(async () => {
      const d = (await http(api("/library/deployments"))).json as { entries: { scriptHash: string }[] };
      return d.entries.some((e) => e.scriptHash === w.f.scripts.state.hash) ? undefined : true;
    }, "old state script gone from the library");
    const nothing = (await http(api("/library/undeploy/unused"))).json as BuildBody;
    expect(nothing.status).to.deep.equal({ code: "SUCCESS", message: "No unused contracts to undeploy." });
    expect(nothing.unsignedTransaction).to.equal(null);
  });
});
