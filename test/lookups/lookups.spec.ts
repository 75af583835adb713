/**
 * Script, datum and transaction lookups over HTTP from what the indexer recorded of real certificate
 * transactions on the devnet (reference scripts deployed in the library, a fork, an update spending the state).
 */
import { expect } from "chai";
import { randomBytes } from "node:crypto";
import { plutusDataHash } from "../../shared/lookups/transaction-scripts";
import { makeCertificate } from "../../shared/protocol";
import { errorBody, http, pollUntil } from "../../fixtures/mesh/helpers";
import type { ProtocolFixture } from "../../fixtures/onchain/protocol-fixture";
import type { RunningMesh } from "../../fixtures/mesh/mesh-harness";
import { startDeployedMesh, type DeployedMesh } from "../support/deployed-mesh";
import { DataHash } from "../../shared/domain/hex";

interface Redeemer {
  tx_index: number;
  purpose: string;
  script_hash: string | null;
  datum_hash: string;
  redeemer_data_hash: string;
  unit_mem: string;
  unit_steps: string;
}
interface Contract {
  tx_hash: string;
  script_hash: string | null;
  script_content: string | null;
  type: string | null;
  redeemer: { tag: string; index: number; data: string; ex_units: { mem: number; steps: number } };
  datum: string | null;
  datum_hash: string | null;
}

describe("lookups: /scripts, /scripts/datum, /txs/{hash}/scripts|redeemers", function () {
  this.timeout(120_000);
  let f: ProtocolFixture;
  let mesh: RunningMesh;
  let world: DeployedMesh;
  let forkTx: string;
  let updateTx: string;
  let forkDatum: string;
  const get = (path: string) => http(`${mesh.api}${path}`);
  const indexed = (tx: string) =>
    pollUntil(
      async () => ((await mesh.broker.call<unknown, { id: string }>("indexer.transaction", { id: tx })) ? true : undefined),
      `${tx} indexed`,
    );
  const cert = () =>
    makeCertificate({
      hash: DataHash(randomBytes(32).toString("hex")),
      algorithm: "SHA-256",
      issuer: f.actors.alice.paymentKeyHash,
      metadata: "{}",
    });

  before(async () => {
    world = await startDeployedMesh({ services: ["gateway", "indexer"] });
    ({ f, mesh } = world);
    const state = await f.mintState(f.actors.alice, [cert()]);
    forkTx = state.utxo.transaction.id;
    forkDatum = state.utxo.datum!;
    updateTx = (await f.update(state, f.actors.alice, [cert()])).txId;
    await indexed(updateTx);
  });
  after(() => world?.close());

  it("answers the redeemers of a fork with their scripts, purposes and real ex-units", async () => {
    const res = await get(`/txs/${forkTx.toUpperCase()}/redeemers`);
    expect(res.status).to.equal(200);
    const redeemers = res.json as Redeemer[];
    expect(redeemers.map((r) => [r.purpose, r.script_hash]).sort()).to.deep.equal(
      [
        ["mint", f.scripts.proxy.policyId],
        ["reward", f.scripts.state.hash],
      ].sort(),
    );
    for (const r of redeemers) {
      expect(BigInt(r.unit_mem) > 0n, "memory").to.equal(true);
      expect(BigInt(r.unit_steps) > 0n, "steps").to.equal(true);
      expect(r.redeemer_data_hash).to.match(/^[0-9a-f]{64}$/);
    }
  });

  it("answers the scripts an update ran, with the reference scripts' code and the spent state's datum", async () => {
    const contracts = (await get(`/txs/${updateTx}/scripts`)).json as Contract[];
    const spend = contracts.find((c) => c.redeemer.tag === "spend")!;
    expect(spend, "the state UTxO spend").to.not.equal(undefined);
    expect(spend).to.include({
      tx_hash: updateTx,
      script_hash: f.scripts.proxy.hash,
      type: "PLUTUS_V3",
      datum: forkDatum,
      datum_hash: plutusDataHash(forkDatum),
    });
    expect(f.scripts.proxy.code).to.include(spend.script_content!.slice(-200));
    const reward = contracts.find((c) => c.redeemer.tag === "reward")!;
    expect(reward.script_hash).to.equal(f.scripts.state.hash);
    expect(reward.redeemer.ex_units.mem).to.be.greaterThan(0);
    expect(f.scripts.state.code).to.include(reward.script_content!.slice(-200));
  });

  it("answers scripts and datums by hash", async () => {
    const h = f.scripts.state.hash;
    const dto = (await get(`/scripts/${h}`)).json as { script_hash: string; type: string; serialised_size: number };
    expect(dto).to.include({ script_hash: h, type: "plutusV3" });
    expect(dto.serialised_size).to.be.greaterThan(100);
    expect((await get(`/scripts/${h.toUpperCase()}/json`)).json).to.deep.equal({ json: null });
    const cbor = (await get(`/scripts/${h}/cbor`)).json as { cbor: string };
    expect(cbor.cbor.length / 2).to.equal(dto.serialised_size);
    expect((await get(`/scripts/${h}/details`)).json).to.deep.equal({ script_hash: h, script_type: "plutusV3", content: cbor.cbor });

    const datumHash = plutusDataHash(forkDatum);
    expect((await get(`/scripts/datum/${datumHash}/cbor`)).json).to.deep.equal({ cbor: forkDatum });
    const json = (await get(`/scripts/datum/${datumHash}`)).json as { json_value: { constructor?: number; fields?: unknown[] } };
    expect(json.json_value.constructor).to.equal(0);
    expect(json.json_value.fields).to.be.an("array").with.length.greaterThan(0);
  });

  it("forgets a rolled-back transaction's redeemers and records them again when it is re-included", async () => {
    const before = (await get(`/txs/${updateTx}/scripts`)).json as Contract[];
    expect(before.map((c) => c.script_content !== null && c.datum !== null)).to.include(true);
    f.chain.devnet.rollback(1);
    await pollUntil(
      async () => (((await get(`/txs/${updateTx}/redeemers`)).json as Redeemer[]).length === 0 ? true : undefined),
      "update rolled back",
    );
    f.chain.devnet.produceBlock();
    await indexed(updateTx);
    expect(((await get(`/txs/${updateTx}/redeemers`)).json as Redeemer[]).map((r) => r.purpose).sort()).to.deep.equal(["reward", "spend"]);
    // recorded again whole: the scripts it ran and the spent state's datum, resolved from the store
    expect((await get(`/txs/${updateTx}/scripts`)).json).to.deep.equal(before);
  });

  it("answers 404 JSON for unknown scripts and datums, [] for unseen transactions, 400 JSON for malformed hashes", async () => {
    for (const path of [
      `/scripts/${"ab".repeat(28)}`,
      `/scripts/${"ab".repeat(28)}/cbor`,
      `/scripts/datum/${"cd".repeat(32)}`,
      `/scripts/datum/${"cd".repeat(32)}/cbor`,
    ]) {
      const res = await get(path);
      expect(res.status, path).to.equal(404);
      expect(errorBody(res).error, path).to.equal("NOT_FOUND");
    }
    // a transaction the indexer never saw has no scripts and no redeemers, as Blockfrost and Yaci answer
    for (const path of [`/txs/${"ef".repeat(32)}/scripts`, `/txs/${"ef".repeat(32)}/redeemers`]) {
      const res = await get(path);
      expect(res.status, path).to.equal(200);
      expect(res.json, path).to.deep.equal([]);
    }
    for (const path of [
      "/scripts/xyz",
      `/scripts/${"ab".repeat(29)}/json`,
      "/scripts/datum/12/cbor",
      "/txs/abc/scripts",
      `/txs/${"g".repeat(64)}/redeemers`,
    ]) {
      const res = await get(path);
      expect(res.status, path).to.equal(400);
      expect(errorBody(res).error, path).to.be.a("string");
    }
  });
});
