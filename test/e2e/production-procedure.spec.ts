/**
 * The README's production procedure, followed step by step against a standalone devnet (its own process), with a
 * service wallet funded by ONE large UTxO: prepare-collateral, init, configure, library deployment, bootstrap — then
 * users of two wallet shapes issue a certificate. The collateral never becomes the one-shot or a fee input, and no
 * large UTxO is ever held back as "collateral".
 */
import { expect } from "chai";
import type { ChildProcess } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createChainClient } from "../../shared/chain";
import { decodeTx, txIdOf, type OgmiosUtxo } from "../../shared/csl";
import { createStore, type Store } from "../../shared/store";
import { generateMnemonic, Wallet } from "../../shared/wallet";
import { http, pollUntil, postJson } from "../../fixtures/mesh/helpers";
import { startMesh, type RunningMesh } from "../../fixtures/mesh/mesh-harness";
import { startDevnetProcess } from "../../fixtures/processes/devnet-process";

interface BuildBody {
  unsignedTransaction: string | null;
  status: { code: string; message: string };
  proxyTxHash?: string;
  proxyOutputIndex?: number;
}

describe("e2e: the README's production procedure on a standalone devnet, service wallet with one large UTxO", function () {
  this.timeout(240_000);
  const service = Wallet.fromMnemonic(generateMnemonic());
  const bigOnly = Wallet.fromMnemonic(generateMnemonic());
  const bigAndSmall = Wallet.fromMnemonic(generateMnemonic());
  let devnet: { child: ChildProcess; url: string } | undefined;
  let store: Store;
  let mesh: RunningMesh | undefined;

  const start = async (env: Record<string, string> = {}) => {
    await mesh?.stop();
    mesh = await startMesh({
      services: ["gateway", "indexer", "verifier", "tx-builder", "submitter", "library"],
      store,
      chain: { ogmiosUrl: devnet!.url, network: "devnet", devnet: null },
      env: { NAMESPACE: `prod-${randomUUID()}`, ...env },
    });
  };
  const post = async (path: string, body: unknown) => {
    const res = await postJson(`${mesh!.api}${path}`, body);
    return { status: res.status, body: res.json as BuildBody, text: res.text };
  };
  /** sign, submit through the API, wait for the confirmation */
  const land = async (unsigned: string, wallet: Wallet) => {
    const res = await postJson(`${mesh!.api}/transaction/submit`, { transaction: unsigned, witnessSet: wallet.signTx(unsigned) });
    expect(res.status, res.text).to.equal(200);
    const id = txIdOf(unsigned);
    await pollUntil(
      async () => ((await http(`${mesh!.api}/transaction/confirm/${id}`)).status === 200 ? true : undefined),
      `tx ${id}`,
      30_000,
    );
  };
  const utxosOf = async (w: Wallet) => {
    const client = createChainClient({ url: devnet!.url });
    try {
      return (await client.utxosByAddresses([w.address])) as OgmiosUtxo[];
    } finally {
      await client.close();
    }
  };

  before(async () => {
    devnet = await startDevnetProcess([
      { address: service.address, lovelace: 5_000_000_000_000n }, // five million ADA in one UTxO
      { address: bigOnly.address, lovelace: 2_000_000_000n },
      { address: bigAndSmall.address, lovelace: 2_000_000_000n },
    ]);
    store = await createStore({ inMemory: true });
    await start();
  });
  after(async () => {
    await mesh?.stop();
    await store?.close();
    devnet?.child.kill("SIGTERM");
  });

  it("deploys: prepare-collateral, init (never on the collateral), configure, deploy the library, a bootstrap", async () => {
    const collateral = await post("/transaction/prepare-collateral", { senderAddress: service.address });
    expect(collateral.status, collateral.text).to.equal(200);
    await land(collateral.body.unsignedTransaction!, service);
    const fiveAda = (await utxosOf(service)).find((u) => BigInt(u.value.ada.lovelace) === 5_000_000n)!;

    const init = await post("/transaction/build", { type: "init", address: service.address });
    expect(init.status, init.text).to.equal(200);
    const oneShot = `${init.body.proxyTxHash}#${init.body.proxyOutputIndex}`;
    expect(oneShot, "the one-shot is never the dedicated collateral").to.not.equal(`${fiveAda.transaction.id}#${fiveAda.index}`);
    expect(decodeTx(init.body.unsignedTransaction!).inputs.map((i) => `${i.txHash}#${i.index}`)).to.not.include(
      `${fiveAda.transaction.id}#${fiveAda.index}`,
    );
    await land(init.body.unsignedTransaction!, service);

    // configure the deployment (README step 2) and restart the services on a fresh store
    await mesh!.stop();
    mesh = undefined;
    await store.close();
    store = await createStore({ inMemory: true });
    await start({
      PROXY_TX_HASH: init.body.proxyTxHash!,
      PROXY_OUTPUT_INDEX: String(init.body.proxyOutputIndex),
      SERVICE_KEY_HASH: service.paymentKeyHash,
      SERVICE_ADDRESS: service.address,
    });
    await pollUntil(
      async () => ((await mesh!.broker.call<{ pointer: unknown }>("indexer.protocol")).pointer ? true : undefined),
      "pointer",
    );

    const deploy = await post("/library/deploy/proxy", {});
    expect(deploy.status, deploy.text).to.equal(200);
    await land(deploy.body.unsignedTransaction!, service);

    const boot = await post("/transaction/build", {
      type: "bootstrap",
      address: service.address,
      bootstrapDatum: {
        name: "default",
        whitelistedAddresses: [],
        fee: 0,
        feeInterval: 1,
        feeReceiverAddresses: [service.address],
        ttl: Date.now() + 365 * 86_400_000,
        transactionLimit: 1000,
        batchSize: 10,
      },
    });
    expect(boot.status, `${boot.text} — five million ADA at the address must pay for it`).to.equal(200);
    await land(boot.body.unsignedTransaction!, service);
    const deployments = (await http(`${mesh!.api}/library/deployments`)).json as { entries: { isActiveContract: boolean }[] };
    expect(deployments.entries.filter((e) => e.isActiveContract)).to.have.length(2);
    expect(
      (await utxosOf(service)).some((u) => BigInt(u.value.ada.lovelace) === 5_000_000n),
      "the collateral is still there",
    ).to.equal(true);
  });

  const issue = async (user: Wallet) => {
    await pollUntil(
      async () =>
        (await mesh!.broker.call<unknown[], { name: string }>("indexer.bootstraps", { name: "default" })).length ? true : undefined,
      "bootstrap indexed",
    );
    const hash = createHash("sha256").update(randomBytes(16)).digest("hex");
    const built = await post("/transaction/build", { type: "default", address: user.address, certificates: [{ hash }] });
    return { built, hash };
  };

  it("a user with one large UTxO is asked for a collateral first, then issues", async () => {
    const first = await issue(bigOnly);
    expect(first.built.status).to.equal(400);
    expect(first.built.body.status.code).to.equal("COLLATERAL_REQUIRED");
    const prepared = await post("/transaction/prepare-collateral", { senderAddress: bigOnly.address });
    await land(prepared.body.unsignedTransaction!, bigOnly);
    const { built, hash } = await issue(bigOnly);
    expect(built.status, built.text).to.equal(200);
    await land(built.body.unsignedTransaction!, bigOnly);
    expect((await http(`${mesh!.api}/verify/${hash}`)).status).to.equal(200);
  });

  it("a user with one large and one small UTxO issues at once: the small one is the collateral, the large one pays", async () => {
    const pay = await postJson(`${mesh!.api}/transaction/prepare-collateral`, { senderAddress: bigAndSmall.address });
    await land((pay.json as BuildBody).unsignedTransaction!, bigAndSmall); // now: 5 ADA + the rest
    const { built, hash } = await issue(bigAndSmall);
    expect(built.status, built.text).to.equal(200);
    const tx = decodeTx(built.body.unsignedTransaction!);
    const small = (await utxosOf(bigAndSmall)).find((u) => BigInt(u.value.ada.lovelace) === 5_000_000n)!;
    expect(tx.collateral.map((c) => `${c.txHash}#${c.index}`)).to.deep.equal([`${small.transaction.id}#${small.index}`]);
    expect(tx.inputs.map((c) => `${c.txHash}#${c.index}`)).to.not.include(`${small.transaction.id}#${small.index}`);
    await land(built.body.unsignedTransaction!, bigAndSmall);
    expect((await http(`${mesh!.api}/verify/${hash}`)).status).to.equal(200);
  });
});
