/** Shared set-up of the issuance tests: a deployed protocol, the mesh over HTTP, wallets that sign for real. */
import { startDevnetServer, type DevnetServer } from "../../shared/devnet";
import { InflightRegistry } from "../../shared/inflight";
import { decodeTx, txIdOf } from "../../shared/csl";
import { createStore, type Store } from "../../shared/store";
import type { Wallet } from "../../shared/wallet";
import { postJson, pollUntil, type HttpResult } from "../mesh/helpers";
import { ProtocolFixture } from "../onchain/support/protocol-fixture";
import { startMesh, type RunningMesh } from "../support/mesh-harness";
import type { ServiceName } from "../../shared/mesh/service-names";

export const ISSUANCE_SERVICES = ["gateway", "indexer", "verifier", "tx-builder", "submitter"] as const;

export interface BuildBody {
  unsignedTransaction: string | null;
  type: string | null;
  status: { code: string; message: string };
  proxyTxHash?: string;
  proxyOutputIndex?: number;
}

export class IssuanceWorld {
  private constructor(
    readonly f: ProtocolFixture,
    readonly server: DevnetServer,
    readonly store: Store,
    readonly mesh: RunningMesh,
    readonly registry: InflightRegistry,
  ) {}

  static async create(services: readonly ServiceName[] = ISSUANCE_SERVICES): Promise<IssuanceWorld> {
    const f = await ProtocolFixture.create("shipped");
    const server = await startDevnetServer(f.chain.devnet, { port: 0 });
    const store = await createStore({ inMemory: true });
    const mesh = await startMesh({
      services,
      store,
      chain: { ogmiosUrl: server.url, network: "devnet", devnet: f.chain.devnet },
      env: { PROXY_TX_HASH: f.oneShot.transaction.id, PROXY_OUTPUT_INDEX: String(f.oneShot.index), SERVICE_KEY_HASH: f.actors.service.paymentKeyHash, SERVICE_ADDRESS: f.actors.service.address },
      now: () => f.chain.now(),
    });
    const registry = await InflightRegistry.open(store, () => f.chain.now());
    return new IssuanceWorld(f, server, store, mesh, registry);
  }

  async close(): Promise<void> {
    await this.mesh.stop();
    await this.store.close();
    await this.server.close();
    await this.f.chain.devnet.close();
  }

  async build(body: Record<string, unknown>): Promise<{ status: number; body: BuildBody }> {
    const res = await postJson(`${this.mesh.api}/transaction/build`, body);
    return { status: res.status, body: res.json as BuildBody };
  }

  async prepareCollateral(address: string): Promise<{ status: number; body: BuildBody }> {
    const res = await postJson(`${this.mesh.api}/transaction/prepare-collateral`, { senderAddress: address });
    return { status: res.status, body: res.json as BuildBody };
  }

  /**
   * Signs and submits: through POST /transaction/submit once the submitter serves it, else straight to the chain
   * with the in-flight registry told about it (what the submitter does).
   */
  async signAndSubmit(unsigned: string, signers: readonly Wallet[]): Promise<string> {
    const signed = signers.reduce((tx, w) => w.signTxFull(tx), unsigned);
    const res: HttpResult = await postJson(`${this.mesh.api}/transaction/submit`, { transaction: signed });
    if (res.status === 200) return (res.json as { transactionHash: string }).transactionHash;
    if (res.status !== 501) throw new Error(`submit failed: ${res.status} ${res.text}`);
    const txId = txIdOf(signed);
    const ttl = decodeTx(signed).ttlSlot;
    await this.f.chain.devnet.submitTransaction(signed);
    const expiresAt = ttl === undefined ? this.f.chain.now() + 15 * 60_000 : this.f.chain.slotToPosixMs(Number(ttl)) + 60_000;
    await this.registry.recordSubmitted({ txId, cborHex: signed, expiresAt });
    return txId;
  }

  /** Produces a block and waits until the indexer has it. */
  async confirm(txId: string): Promise<void> {
    this.f.chain.devnet.produceBlock();
    await pollUntil(async () => ((await this.mesh.broker.call("indexer.transaction", { id: txId })) ? true : undefined), `tx ${txId} indexed`);
  }

  /** Build, sign by `signers`, submit and confirm; returns the tx id. */
  async issue(body: Record<string, unknown>, signers: readonly Wallet[]): Promise<{ txId: string; body: BuildBody }> {
    const res = await this.build(body);
    if (res.body.status.code !== "SUCCESS") throw new Error(`build failed: ${JSON.stringify(res.body.status)}`);
    const txId = await this.signAndSubmit(res.body.unsignedTransaction!, signers);
    await this.confirm(txId);
    return { txId, body: res.body };
  }

  async ensureCollateral(w: Wallet): Promise<void> {
    const res = await this.prepareCollateral(w.address);
    if (res.body.status.code === "COLLATERAL_ALREADY_AVAILABLE") return;
    const txId = await this.signAndSubmit(res.body.unsignedTransaction!, [w]);
    await this.confirm(txId);
  }
}
