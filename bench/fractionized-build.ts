/**
 * Insert-build latency of the fractionized service in embedded mode (gateway → fractionized → indexer/devnet
 * over HTTP and Ogmios, in one process): each insert is built, signed and submitted, so the next chains off the
 * pending list; plus its floor: the same insert (an UPDATE_STATE anchoring the key, the predecessor re-created,
 * the new node, the list script attached) built straight with CSL and evaluated once by the devnet.
 */
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import { buildTx } from "../shared/csl";
import { postJson } from "../fixtures/mesh/helpers";
import { ISSUANCE_SERVICES, IssuanceWorld } from "../fixtures/issuance/issuance-world";
import { defaultBootstrap } from "../fixtures/onchain/protocol-fixture";
import { FractionizedScripts, insertParts, type Predecessor } from "../shared/extensions/fractionized";
import { withExtraParts } from "../shared/issuance/for-extensions";
import { dataFromCborHex, makeCertificate } from "../shared/protocol";
import { decodeFractionizedDatum, type FractionizedNode } from "../shared/extensions/fractionized/datum";
import { fractionizedNodeTokenName } from "../shared/extensions/fractionized/scripts";
import { nodeAssetName } from "../shared/extensions/list-kit/list-tokens";
import { findPredecessor, snapshotOf, type ListEntry } from "../shared/extensions/list-kit/list-view";
import { percentile } from "./percentile";

export async function measureInsertBuild(): Promise<Record<string, unknown>> {
  const w = await IssuanceWorld.create([...ISSUANCE_SERVICES, "fractionized"]);
  try {
    const alice = w.f.actors.alice;
    await w.f.mintBootstrap(defaultBootstrap(w.f.actors, { fee: 0n, transactionLimit: 100_000n }));
    await w.ensureCollateral(alice);
    const build = async (body: Record<string, unknown>) => {
      const res = await postJson(`${w.mesh.api}/extension/fractionized-certificate/build`, body);
      if (res.status !== 200) throw new Error(`build failed: ${res.status} ${res.text}`);
      return res.json as { unsignedTransaction: string; policyId: string; initUtxoTxHash: string; initUtxoOutputIndex: number };
    };
    const terms = (key: string) => ({
      certificate: { hash: key, metadata: { uv_tid: "bench" } },
      tokenAmount: 10,
      claimants: [],
    });
    const init = await build({ type: "Init", address: alice.address, ...terms(randomBytes(32).toString("hex")) });
    await w.confirm(await w.signAndSubmit(init.unsignedTransaction, [alice]));
    const policyId = init.policyId;
    const script = new FractionizedScripts(0).of({ txHash: init.initUtxoTxHash, index: init.initUtxoOutputIndex });

    const pp = w.f.chain.devnet.protocolParameters() as never;
    const coinsPerByte = BigInt((pp as { minUtxoDepositCoefficient: number }).minUtxoDepositCoefficient);
    const floor = async (n: number): Promise<number[]> => {
      const entries: ListEntry[] = w.f.chain.utxosAt(script.address).flatMap((u) => {
        const d = decodeFractionizedDatum(dataFromCborHex(u.datum!));
        const tokenName = d.kind === "head" ? script.headTokenName : fractionizedNodeTokenName(d.key);
        return [{ tokenName, key: d.kind === "head" ? null : d.key, next: d.next, utxo: u, origin: null }];
      });
      const list = snapshotOf(entries)!;
      const state = w.f.findState(w.f.findStateIdsOf(alice)[0]!);
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const key = randomBytes(32).toString("hex");
        const t0 = performance.now();
        const pos = findPredecessor(list, key);
        if ("duplicate" in pos) throw new Error("duplicate key");
        const e = pos.entry;
        const d = decodeFractionizedDatum(dataFromCborHex(e.utxo.datum!));
        const pred: Predecessor =
          d.kind === "head"
            ? { kind: "head", utxo: e.utxo, datum: d }
            : { kind: "node", utxo: e.utxo, datum: d as FractionizedNode, head: list.head.utxo };
        const cert = makeCertificate({
          hash: key,
          algorithm: "SHA-256",
          issuer: alice.paymentKeyHash,
          metadata: JSON.stringify({ policyId }),
        });
        const base = w.f.updateSpec(state, alice, { certificates: [cert] });
        const spec = withExtraParts(
          base as never,
          insertParts(
            script,
            pred,
            key,
            alice.paymentKeyHash,
            { totalAmount: 10n, claimants: [], assetName: nodeAssetName(key) },
            coinsPerByte,
          ),
        );
        const tx = buildTx({ ...(spec as object), protocolParameters: pp } as never);
        await w.f.chain.devnet.evaluateTransaction(tx.cborHex);
        out.push(performance.now() - t0);
      }
      return out;
    };
    const floorBefore = await floor(10);

    const N = 30;
    const latencies: number[] = [];
    let last = "";
    for (let i = 0; i < N; i++) {
      const t0 = performance.now();
      const res = await build({ type: "Insert", address: alice.address, policyId, ...terms(randomBytes(32).toString("hex")) });
      latencies.push(performance.now() - t0);
      last = await w.signAndSubmit(res.unsignedTransaction, [alice]);
      if (i % 10 === 9) w.f.chain.devnet.produceBlock();
    }
    await w.confirm(last);
    const floorAfter = await floor(10);
    const p50 = percentile(latencies, 50);
    const floorP50 = percentile([...floorBefore, ...floorAfter], 50);
    return {
      insertBuildHttp: { n: N, p50Ms: p50, p99Ms: percentile(latencies, 99) },
      floorCslBuildPlusOneEvaluation: {
        beforeRun: { n: floorBefore.length, p50Ms: percentile(floorBefore, 50) },
        afterRun: { n: floorAfter.length, p50Ms: percentile(floorAfter, 50) },
      },
      ratioP50ToFloor: Number((p50 / floorP50).toFixed(2)),
    };
  } finally {
    await w.close();
  }
}
