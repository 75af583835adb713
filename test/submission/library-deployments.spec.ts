/**
 * GET /library/deployments over a deployed protocol (reference scripts placed by the on-chain fixture): entries
 * from the indexer, kept only while unspent on chain, active when they carry the current proxy or state script.
 */
import { expect } from "chai";
import { startDevnetServer, type DevnetServer } from "../../shared/devnet";
import { createStore, type Store } from "../../shared/store";
import { http, pollUntil } from "../mesh/helpers";
import { defaultBootstrap, ProtocolFixture } from "../onchain/support/protocol-fixture";
import { startMesh, type RunningMesh } from "../support/mesh-harness";

interface Deployments {
  address: string;
  entries: Array<{ transactionHash: string; outputIndex: number; scriptHash: string; isActiveContract: boolean }>;
  stakeRegistered: boolean;
}

describe("library: GET /library/deployments", function () {
  this.timeout(120_000);
  let f: ProtocolFixture;
  let server: DevnetServer;
  let store: Store;
  let mesh: RunningMesh;

  before(async () => {
    f = await ProtocolFixture.create("shipped");
    server = await startDevnetServer(f.chain.devnet, { port: 0 });
    store = await createStore({ inMemory: true });
    mesh = await startMesh({
      services: ["gateway", "indexer", "library"],
      store,
      chain: { ogmiosUrl: server.url, network: "devnet", devnet: f.chain.devnet },
      env: { PROXY_TX_HASH: f.oneShot.transaction.id, PROXY_OUTPUT_INDEX: String(f.oneShot.index), SERVICE_KEY_HASH: f.actors.service.paymentKeyHash },
      now: () => f.chain.now(),
    });
  });
  after(async () => {
    await mesh?.stop();
    await store?.close();
    await server?.close();
    await f?.chain.devnet.close();
  });

  const deployments = () =>
    pollUntil(async () => {
      const res = await http(`${mesh.api}/library/deployments`);
      const body = res.json as Deployments;
      return res.status === 200 && body.entries.length === 2 ? body : undefined;
    }, "both library entries indexed");

  it("lists the proxy and state reference scripts as active, at the library address", async () => {
    const body = await deployments();
    expect(body.address).to.equal(f.scripts.library.address);
    const byHash = Object.fromEntries(body.entries.map((e) => [e.scriptHash, e]));
    expect(Object.keys(byHash).sort()).to.deep.equal([f.scripts.proxy.hash, f.scripts.state.hash].sort());
    expect(byHash[f.scripts.state.hash]).to.include({ transactionHash: f.stateRef.transaction.id, outputIndex: f.stateRef.index, isActiveContract: true });
    expect(byHash[f.scripts.proxy.hash]).to.include({ transactionHash: f.proxyRef.transaction.id, outputIndex: f.proxyRef.index, isActiveContract: true });
    // registration is only evidenced once a protocol transaction withdrew from the state script's account
    expect(body.stakeRegistered).to.equal(false);
  });

  it("reports the state script's stake credential registered once a bootstrap (withdraw-zero) is on chain", async () => {
    await f.mintBootstrap(defaultBootstrap(f.actors));
    const body = await pollUntil(async () => {
      const b = (await http(`${mesh.api}/library/deployments`)).json as Deployments;
      return b.stakeRegistered ? b : undefined;
    }, "stakeRegistered");
    expect(body.entries).to.have.length(2);
  });
});
