/**
 * Build latency of the tokenizable service in embedded mode (gateway → tokenizable → indexer/devnet over HTTP and
 * Ogmios, in one process), CIP-68 list: inserts, each built, signed and submitted so the next chains off the pending
 * list, and the owner's redeems; plus the floor: the same insert (an UPDATE_STATE anchoring the key, the predecessor
 * re-created, the new node, the list script attached) built straight with CSL and evaluated once by the devnet.
 */
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import { buildTx } from "../shared/csl";
import { postJson } from "../fixtures/mesh/helpers";
import { ISSUANCE_SERVICES, IssuanceWorld } from "../fixtures/issuance/issuance-world";
import { defaultBootstrap } from "../fixtures/onchain/protocol-fixture";
import { insertParts, TokenizableScripts, type Predecessor } from "../shared/extensions/tokenizable";
import { dataFromCborHex, makeCertificate } from "../shared/protocol";
import { decodeTokenizableDatum, type TokenizableNode } from "../shared/extensions/tokenizable/datum";
import { nodeAssetName } from "../shared/extensions/list-kit/list-tokens";
import { tokenizableNodeTokenName } from "../shared/extensions/tokenizable/scripts";
import { withExtraParts } from "../shared/issuance/for-extensions";
import { findPredecessor, snapshotOf, type ListEntry } from "../shared/extensions/list-kit/list-view";
import { percentile } from "./percentile";

export async function measureTokenizableBuilds(): Promise<Record<string, unknown>> {
  const w = await IssuanceWorld.create([...ISSUANCE_SERVICES, "tokenizable"]);
  try {
    const { alice, bob } = w.f.actors;
    await w.f.mintBootstrap(defaultBootstrap(w.f.actors, { fee: 0n, transactionLimit: 100_000n }));
    for (const wallet of [alice, bob]) await w.ensureCollateral(wallet);
    const scripts = new TokenizableScripts(0);
    const build = async (body: Record<string, unknown>) => {
      const res = await postJson(`${w.mesh.api}/extension/tokenizable-certificate/build`, body);
      if (res.status !== 200) throw new Error(`build failed: ${res.status} ${res.text}`);
      return res.json as { unsignedTransaction: string; policyId: string; initUtxoTxHash: string; initUtxoOutputIndex: number };
    };
    const terms = (key: string) => ({
      certificate: { hash: key, metadata: { name: "Bench diploma", image: "ipfs://bench", description: "bench" } },
      owner: bob.paymentKeyHash,
    });
    const init = await build({
      type: "Init",
      address: alice.address,
      config: { cip68ScriptAddress: scripts.metadata.hash },
      ...terms(randomBytes(32).toString("hex")),
    });
    await w.confirm(await w.signAndSubmit(init.unsignedTransaction, [alice]));
    const policyId = init.policyId;
    const script = scripts.of({ txHash: init.initUtxoTxHash, index: init.initUtxoOutputIndex });

    const pp = w.f.chain.devnet.protocolParameters() as never;
    const coinsPerByte = BigInt((pp as { minUtxoDepositCoefficient: number }).minUtxoDepositCoefficient);
    const floor = async (n: number): Promise<number[]> => {
      const entries: ListEntry[] = w.f.chain.utxosAt(script.address).map((u) => {
        const d = decodeTokenizableDatum(dataFromCborHex(u.datum!));
        const tokenName = d.kind === "head" ? script.headTokenName : tokenizableNodeTokenName(d.key);
        return { tokenName, key: d.kind === "head" ? null : d.key, next: d.next, utxo: u, origin: null };
      });
      const list = snapshotOf(entries)!;
      const state = w.f.findState(w.f.findStateIdsOf(alice)[0]!);
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const key = randomBytes(32).toString("hex");
        const t0 = performance.now();
        const pos = findPredecessor(list, key);
        if ("duplicate" in pos) throw new Error("duplicate key");
        const d = decodeTokenizableDatum(dataFromCborHex(pos.entry.utxo.datum!));
        const pred: Predecessor =
          d.kind === "head"
            ? { kind: "head", utxo: pos.entry.utxo, datum: d }
            : { kind: "node", utxo: pos.entry.utxo, datum: d as TokenizableNode, head: list.head.utxo };
        const cert = makeCertificate({
          hash: key,
          algorithm: "SHA-256",
          issuer: alice.paymentKeyHash,
          metadata: JSON.stringify({ policyId }),
        });
        const base = w.f.updateSpec(state, alice, { certificates: [cert] });
        const parts = insertParts(
          script,
          pred,
          key,
          alice.paymentKeyHash,
          { owner: bob.paymentKeyHash, assetName: nodeAssetName(key) },
          coinsPerByte,
        );
        const tx = buildTx({ ...(withExtraParts(base as never, parts) as object), protocolParameters: pp } as never);
        await w.f.chain.devnet.evaluateTransaction(tx.cborHex);
        out.push(performance.now() - t0);
      }
      return out;
    };
    const floorBefore = await floor(10);

    const N = 20;
    const inserts: number[] = [];
    const keys: string[] = [];
    let last = "";
    for (let i = 0; i < N; i++) {
      const key = randomBytes(32).toString("hex");
      const t0 = performance.now();
      const res = await build({ type: "Insert", address: alice.address, policyId, ...terms(key) });
      inserts.push(performance.now() - t0);
      keys.push(key);
      last = await w.signAndSubmit(res.unsignedTransaction, [alice]);
      if (i % 10 === 9) w.f.chain.devnet.produceBlock();
    }
    await w.confirm(last);
    // the indexer records the last block's list outputs right after the transaction itself
    await new Promise((r) => setTimeout(r, 500));
    const redeems: number[] = [];
    for (const key of keys.slice(0, 10)) {
      const t0 = performance.now();
      const res = await build({ type: "Redeem", address: bob.address, policyId, key });
      redeems.push(performance.now() - t0);
      last = await w.signAndSubmit(res.unsignedTransaction, [bob]);
    }
    await w.confirm(last);
    const floorAfter = await floor(10);
    const floorP50 = percentile([...floorBefore, ...floorAfter], 50);
    const p50 = percentile(inserts, 50);
    const redeemP50 = percentile(redeems, 50);
    return {
      insertBuildHttp: { n: N, p50Ms: p50, p99Ms: percentile(inserts, 99) },
      redeemBuildHttpCip68: { n: redeems.length, p50Ms: redeemP50, p99Ms: percentile(redeems, 99) },
      floorCslInsertBuildPlusOneEvaluation: {
        beforeRun: { n: floorBefore.length, p50Ms: percentile(floorBefore, 50) },
        afterRun: { n: floorAfter.length, p50Ms: percentile(floorAfter, 50) },
      },
      ratios: {
        insertBuildP50ToFloor: {
          value: Number((p50 / floorP50).toFixed(2)),
          lowerIsBetter: true,
          figure: `${p50.toFixed(0)} ms insert build over HTTP (p50)`,
          reference: `${floorP50.toFixed(0)} ms the same insert built with CSL + one devnet evaluation (p50)`,
        },
        redeemBuildP50ToInsertFloor: {
          value: Number((redeemP50 / floorP50).toFixed(2)),
          lowerIsBetter: true,
          figure: `${redeemP50.toFixed(0)} ms CIP-68 redeem build over HTTP (p50)`,
          reference: `${floorP50.toFixed(0)} ms the insert floor (p50)`,
        },
      },
    };
  } finally {
    await w.close();
  }
}
