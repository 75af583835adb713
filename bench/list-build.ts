/**
 * Insert-build latency of a list extension's service in embedded mode (gateway → extension → indexer/devnet over
 * HTTP and Ogmios, in one process): each insert is built, signed and submitted, so the next chains off the pending
 * list; plus its floor: the same insert (an UPDATE_STATE anchoring the key, the predecessor re-created, the new
 * node, the list script attached) built straight with CSL and evaluated once by the devnet. The extension's own
 * builds (a Redeem, …) are measured by its `after` step, between the inserts and the second floor.
 */
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import { buildTx } from "../shared/csl";
import type { ServiceName } from "../shared/mesh/service-names";
import type { ListPredecessor } from "../shared/extensions/list-kit/transaction-parts";
import { findPredecessor, snapshotOf, type ListEntry } from "../shared/extensions/list-kit/list-view";
import { type ExtraParts, withExtraParts } from "../shared/issuance/for-extensions";
import { type Data, dataFromCborHex, makeCertificate } from "../shared/protocol";
import type { Wallet } from "../shared/wallet";
import { postJson } from "../fixtures/mesh/helpers";
import { ISSUANCE_SERVICES, IssuanceWorld } from "../fixtures/issuance/issuance-world";
import { defaultBootstrap } from "../fixtures/onchain/protocol-fixture";
import { percentile } from "./percentile";
import { DataHash } from "../shared/domain/hex";

type Actors = { alice: Wallet; bob: Wallet };
type Built = { unsignedTransaction: string; policyId: string; initUtxoTxHash: string; initUtxoOutputIndex: number };
type Script = { readonly address: string; readonly headTokenName: string };

/** What differs between the list extensions here. */
type Datum =
  | { readonly kind: "head"; readonly next: string | undefined }
  | { readonly kind: "node"; readonly key: string; readonly next: string | undefined };
type Pred<D extends Datum> = ListPredecessor<Extract<D, { kind: "head" }>, Extract<D, { kind: "node" }>>;

export interface ListBuildCase<S extends Script, D extends Datum> {
  readonly service: ServiceName;
  readonly api: string;
  /** the script of a list, from its init output reference */
  scriptOf(initRef: { txHash: string; index: number }): S;
  /** an Init's or Insert's own fields for `key` */
  terms(key: string, actors: Actors): Record<string, unknown>;
  /** the Init's config, if any */
  readonly initConfig?: Record<string, unknown>;
  decode(d: Data): D;
  nodeTokenName(key: string): string;
  /** the Insert's parts as the service builds them */
  insertParts(script: S, pred: Pred<D>, key: string, inserter: string, actors: Actors, coinsPerByte: bigint): ExtraParts;
}

export interface ListBuildFigures {
  readonly inserts: number[];
  readonly floorBefore: number[];
  readonly floorAfter: number[];
}

/** Runs `inserts` inserts over HTTP between two floors of 10; `after` measures the extension's own builds. */
export async function measureListBuilds<S extends Script, D extends Datum, After>(
  ext: ListBuildCase<S, D>,
  inserts: number,
  after: (ctx: {
    build: (body: Record<string, unknown>) => Promise<Built>;
    w: IssuanceWorld;
    policyId: string;
    keys: string[];
  }) => Promise<After>,
): Promise<ListBuildFigures & { after: After }> {
  const w = await IssuanceWorld.create([...ISSUANCE_SERVICES, ext.service]);
  try {
    const { alice, bob } = w.f.actors;
    const actors = { alice, bob };
    await w.f.mintBootstrap(defaultBootstrap(w.f.actors, { fee: 0n, transactionLimit: 100_000n }));
    for (const wallet of [alice, bob]) await w.ensureCollateral(wallet);
    const build = async (body: Record<string, unknown>) => {
      const res = await postJson(`${w.mesh.api}${ext.api}/build`, body);
      if (res.status !== 200) throw new Error(`build failed: ${res.status} ${res.text}`);
      return res.json as Built;
    };
    const init = await build({
      type: "Init",
      address: alice.address,
      ...(ext.initConfig ? { config: ext.initConfig } : {}),
      ...ext.terms(randomBytes(32).toString("hex"), actors),
    });
    await w.confirm(await w.signAndSubmit(init.unsignedTransaction, [alice]));
    const policyId = init.policyId;
    const script = ext.scriptOf({ txHash: init.initUtxoTxHash, index: init.initUtxoOutputIndex });

    const pp = w.f.chain.devnet.protocolParameters() as never;
    const coinsPerByte = BigInt((pp as { minUtxoDepositCoefficient: number }).minUtxoDepositCoefficient);
    const floor = async (n: number): Promise<number[]> => {
      const entries: ListEntry[] = w.f.chain.utxosAt(script.address).map((u) => {
        const d = ext.decode(dataFromCborHex(u.datum!));
        const tokenName = d.kind === "head" ? script.headTokenName : ext.nodeTokenName(d.key);
        return { tokenName, key: d.kind === "head" ? null : d.key, next: d.next, utxo: u, origin: null };
      });
      const list = snapshotOf(entries)!;
      const state = w.f.findState(w.f.findStateIdsOf(alice)[0]!);
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const key = randomBytes(32).toString("hex");
        const t0 = performance.now();
        const pos = findPredecessor(list, DataHash(key));
        if ("duplicate" in pos) throw new Error("duplicate key");
        const d = ext.decode(dataFromCborHex(pos.entry.utxo.datum!));
        const pred = (
          d.kind === "head"
            ? { kind: "head", utxo: pos.entry.utxo, datum: d }
            : { kind: "node", utxo: pos.entry.utxo, datum: d, head: list.head.utxo }
        ) as Pred<D>;
        const cert = makeCertificate({
          hash: DataHash(key),
          algorithm: "SHA-256",
          issuer: alice.paymentKeyHash,
          metadata: JSON.stringify({ policyId }),
        });
        const base = w.f.updateSpec(state, alice, { certificates: [cert] });
        const parts = ext.insertParts(script, pred, key, alice.paymentKeyHash, actors, coinsPerByte);
        const tx = buildTx({ ...(withExtraParts(base as never, parts) as object), protocolParameters: pp } as never);
        await w.f.chain.devnet.evaluateTransaction(tx.cborHex);
        out.push(performance.now() - t0);
      }
      return out;
    };
    const floorBefore = await floor(10);

    const latencies: number[] = [];
    const keys: string[] = [];
    let last = "";
    for (let i = 0; i < inserts; i++) {
      const key = randomBytes(32).toString("hex");
      const t0 = performance.now();
      const res = await build({ type: "Insert", address: alice.address, policyId, ...ext.terms(key, actors) });
      latencies.push(performance.now() - t0);
      keys.push(key);
      last = await w.signAndSubmit(res.unsignedTransaction, [alice]);
      if (i % 10 === 9) w.f.chain.devnet.produceBlock();
    }
    await w.confirm(last);
    const afterFigures = await after({ build, w, policyId, keys });
    const floorAfter = await floor(10);
    return { inserts: latencies, floorBefore, floorAfter, after: afterFigures };
  } finally {
    await w.close();
  }
}

/** The p50 and p99 of a run. */
export const spread = (ms: number[]) => ({ n: ms.length, p50Ms: percentile(ms, 50), p99Ms: percentile(ms, 99) });
