/**
 * Protocol set-up through the tx-builder: `init` on an unconfigured service takes the wallet's first UTxO as the
 * one-shot and answers it (proxyTxHash / proxyOutputIndex); configured with it, `deploy` stores the reference
 * scripts and registers the state script's stake credential, `bootstrap` mints a bootstrap datum; repeated,
 * init and deploy refuse with ERROR.
 */
import { expect } from "chai";
import { decodeTx } from "../../shared/csl";
import { Devnet, startDevnetServer, type DevnetServer } from "../../shared/devnet";
import { createStore, type Store } from "../../shared/store";
import { postJson, pollUntil } from "../../fixtures/mesh/helpers";
import { newWallet } from "../../fixtures/onchain/test-chain";
import { startMesh, type RunningMesh } from "../../fixtures/mesh/mesh-harness";
import type { BuildBody } from "../../fixtures/issuance/issuance-world";

describe("issuance: init, deploy and bootstrap through the tx-builder", function () {
  this.timeout(120_000);
  const service = newWallet();
  const clock = { ms: 1_800_000_000_000 };
  let devnet: Devnet;
  let server: DevnetServer;
  let store: Store;
  let mesh: RunningMesh | undefined;

  const start = async (env: Record<string, string> = {}) => {
    await mesh?.stop();
    mesh = await startMesh({
      services: ["gateway", "indexer", "tx-builder"],
      store,
      chain: { ogmiosUrl: server.url, network: "devnet", devnet },
      env,
      now: () => clock.ms,
    });
  };
  const build = async (body: Record<string, unknown>) => {
    const res = await postJson(`${mesh!.api}/transaction/build`, body);
    return { status: res.status, body: res.json as BuildBody };
  };
  const land = async (unsigned: string) => {
    await devnet.submitTransaction(service.signTxFull(unsigned));
    devnet.produceBlock();
  };

  before(async () => {
    devnet = await Devnet.create({
      genesis: [
        { address: service.address, lovelace: 50_000_000_000n },
        { address: service.address, lovelace: 20_000_000n },
      ],
      clock: () => clock.ms,
    });
    server = await startDevnetServer(devnet, { port: 0 });
    store = await createStore({ inMemory: true });
    await start();
  });
  after(async () => {
    await mesh?.stop();
    await store?.close();
    await server?.close();
    await devnet?.close();
  });

  it("init without a configured deployment spends the wallet's first UTxO and answers it as the one-shot", async () => {
    const res = await build({ type: "INIT", address: service.address });
    expect(res.status, JSON.stringify(res.body.status)).to.equal(200);
    expect(res.body.type).to.equal("init");
    const first = devnet
      .queryUtxo({ addresses: [service.address] })
      .sort((a, b) => (a.transaction.id < b.transaction.id ? -1 : a.transaction.id > b.transaction.id ? 1 : a.index - b.index))[0]!;
    expect(res.body).to.include({ proxyTxHash: first.transaction.id, proxyOutputIndex: first.index });
    expect(decodeTx(res.body.unsignedTransaction!).inputs.map((i) => `${i.txHash}#${i.index}`)).to.include(
      `${first.transaction.id}#${first.index}`,
    );
    await land(res.body.unsignedTransaction!);

    // a fresh store: the first indexer ran without a deployment and checkpointed past the init block
    await mesh?.stop();
    mesh = undefined;
    await store.close();
    store = await createStore({ inMemory: true });
    const env = {
      PROXY_TX_HASH: res.body.proxyTxHash!,
      PROXY_OUTPUT_INDEX: String(res.body.proxyOutputIndex),
      SERVICE_KEY_HASH: service.paymentKeyHash,
    };
    await start(env);
    await pollUntil(
      async () => ((await mesh!.broker.call<{ pointer: unknown }>("indexer.protocol")).pointer ? true : undefined),
      "pointer indexed",
    );
    const again = await build({ type: "init", address: service.address });
    expect(again.status).to.equal(400);
    expect(again.body.status.code).to.equal("ERROR");
    expect(again.body.status.message).to.match(/Existing proxy contract found with transaction hash/);
  });

  it("deploy stores both reference scripts and registers the stake credential; then a bootstrap can be minted", async () => {
    const res = await build({ type: "deploy", address: service.address });
    expect(res.status, JSON.stringify(res.body.status)).to.equal(200);
    const tx = decodeTx(res.body.unsignedTransaction!);
    expect(tx.outputs.filter((o) => o.script !== undefined)).to.have.length(2);
    expect(tx.requiredSigners).to.deep.equal([service.paymentKeyHash]);
    await land(res.body.unsignedTransaction!);
    await pollUntil(
      async () => ((await mesh!.broker.call<{ library: unknown[] }>("indexer.protocol")).library.length === 2 ? true : undefined),
      "library indexed",
    );
    const again = await build({ type: "deploy", address: service.address });
    expect(again.body.status.code).to.equal("ERROR");
    expect(again.body.status.message).to.match(/already holds/);

    const collateral = await postJson(`${mesh!.api}/transaction/prepare-collateral`, { senderAddress: service.address });
    const body = collateral.json as BuildBody;
    if (body.status.code === "SUCCESS") await land(body.unsignedTransaction!);
    const boot = await build({
      type: "bootstrap",
      address: service.address,
      bootstrapDatum: { name: "default", fee: 0, feeInterval: 1, ttl: clock.ms + 86_400_000, transactionLimit: 10, batchSize: 5 },
    });
    expect(boot.status, JSON.stringify(boot.body.status)).to.equal(200);
    await land(boot.body.unsignedTransaction!);
    await pollUntil(
      async () =>
        (await mesh!.broker.call<unknown[], { name: string }>("indexer.bootstraps", { name: "default" })).length === 1 ? true : undefined,
      "bootstrap indexed",
    );
  });
});
