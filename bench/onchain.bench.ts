/**
 * Execution units, transaction sizes and script sizes of the validators' main paths (shipped build), measured
 * through the devnet on real CSL-built transactions. `npm run bench -- onchain`.
 */
import { loadBlueprint } from "../shared/protocol";
import { ProtocolFixture, certificatesFor, defaultBootstrap } from "../test/onchain/support/protocol-fixture";
import type { Budget } from "../test/onchain/support/test-chain";

const summary = (r: { budgets: Budget[]; size: number }, max: { memory: number; cpu: number }) => {
  const t = r.budgets.reduce((a, b) => ({ memory: a.memory + b.memory, cpu: a.cpu + b.cpu }), { memory: 0, cpu: 0 });
  return {
    perScript: r.budgets,
    totalMemory: t.memory,
    totalCpu: t.cpu,
    memoryPercentOfTxMax: +((100 * t.memory) / max.memory).toFixed(2),
    cpuPercentOfTxMax: +((100 * t.cpu) / max.cpu).toFixed(2),
    txBytes: r.size,
  };
};

export default async function (): Promise<Record<string, unknown>> {
  const f = await ProtocolFixture.create("shipped");
  const pp = f.chain.devnet.protocolParameters();
  const limit = pp.maxExecutionUnitsPerTransaction ?? { memory: 14_000_000, cpu: 10_000_000_000 };
  const max = { memory: Number(limit.memory), cpu: Number(limit.cpu) };
  const paths: Record<string, unknown> = {};
  const { alice, bob } = f.actors;

  const boot = await f.chain.submit(f.mintBootstrapSpec(defaultBootstrap(f.actors, { batchSize: 30n })), [f.actors.service]);
  paths["MINT_BOOTSTRAP"] = summary(boot, max);
  const fork1 = await f.mintState(alice, certificatesFor(alice, 1));
  paths["MINT_STATE 1 cert, fee due"] = summary(fork1, max);
  const fork10 = await f.mintState(bob, certificatesFor(bob, 10));
  paths["MINT_STATE 10 certs, fee due"] = summary(fork10, max);
  let st = fork1 as Parameters<typeof f.update>[0];
  for (const n of [1, 20, 10]) {
    const r = await f.update(st, alice, certificatesFor(alice, n));
    paths[`UPDATE_STATE ${n} certs, countdown ${st.datum.countdown}${st.datum.countdown % 3n === 0n ? ", fee due" : ""}`] = summary(r, max);
    st = r.state;
  }
  const feeDue = await f.update(st, alice, certificatesFor(alice, 10));
  paths[`UPDATE_STATE 10 certs, countdown ${st.datum.countdown}${st.datum.countdown % 3n === 0n ? ", fee due" : ""}`] = summary(feeDue, max);
  const two = [feeDue.state, f.findState(f.findStateIdsOf(bob)[0]!)];
  const burn = await f.chain.submit(f.burnStatesSpec([two[0]!], alice), [alice]);
  paths["BURN_STATE 1 state"] = summary(burn, max);
  const up = await f.chain.submit(f.upgradeSpec(), [f.actors.service]);
  paths["proxy ADMIN spend (upgrade)"] = summary(up, max);

  const blueprint = loadBlueprint();
  return {
    maxTxExUnits: max,
    unappliedScripts: Object.fromEntries(blueprint.validators.map((v) => [v.title, { hash: v.hash, bytes: v.compiledCode.length / 2 }])),
    appliedScriptBytes: { proxy: f.scripts.proxy.size, state: f.scripts.state.size, library: f.scripts.library.size },
    paths,
  };
}
