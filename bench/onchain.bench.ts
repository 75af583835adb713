/**
 * Execution units, transaction sizes and script sizes of the validators' main paths (shipped build), measured
 * through the devnet on real CSL-built transactions. `npm run bench -- onchain`.
 */
import { loadBlueprint } from "../shared/protocol";
import { ProtocolFixture, certificatesFor, defaultBootstrap } from "../fixtures/onchain/protocol-fixture";
import { pathFigures, txLimitsOf } from "../fixtures/onchain/path-figures";

export default async function (): Promise<Record<string, unknown>> {
  const f = await ProtocolFixture.create("shipped");
  const max = txLimitsOf(f.chain);
  const paths: Record<string, unknown> = {};
  const { alice, bob } = f.actors;

  const boot = await f.chain.submit(f.mintBootstrapSpec(defaultBootstrap(f.actors, { batchSize: 30n })), [f.actors.service]);
  paths["MINT_BOOTSTRAP"] = pathFigures(boot, max);
  const fork1 = await f.mintState(alice, certificatesFor(alice, 1));
  paths["MINT_STATE 1 cert, fee due"] = pathFigures(fork1, max);
  const fork10 = await f.mintState(bob, certificatesFor(bob, 10));
  paths["MINT_STATE 10 certs, fee due"] = pathFigures(fork10, max);
  let st = fork1 as Parameters<typeof f.update>[0];
  for (const n of [1, 20, 10]) {
    const r = await f.update(st, alice, certificatesFor(alice, n));
    paths[`UPDATE_STATE ${n} certs, countdown ${st.datum.countdown}${st.datum.countdown % 3n === 0n ? ", fee due" : ""}`] = pathFigures(
      r,
      max,
    );
    st = r.state;
  }
  const feeDue = await f.update(st, alice, certificatesFor(alice, 10));
  paths[`UPDATE_STATE 10 certs, countdown ${st.datum.countdown}${st.datum.countdown % 3n === 0n ? ", fee due" : ""}`] = pathFigures(
    feeDue,
    max,
  );
  const two = [feeDue.state, f.findState(f.findStateIdsOf(bob)[0]!)];
  const burn = await f.chain.submit(f.burnStatesSpec([two[0]!], alice), [alice]);
  paths["BURN_STATE 1 state"] = pathFigures(burn, max);
  const burnBoot = await f.chain.submit(f.burnBootstrapSpec(), [f.actors.service]);
  paths["BURN_BOOTSTRAP"] = pathFigures(burnBoot, max);
  const up = await f.chain.submit(f.upgradeSpec(), [f.actors.service]);
  paths["proxy ADMIN spend (upgrade)"] = pathFigures(up, max);

  const blueprint = loadBlueprint();
  return {
    maxTx: max,
    unappliedScripts: Object.fromEntries(blueprint.validators.map((v) => [v.title, { hash: v.hash, bytes: v.compiledCode.length / 2 }])),
    appliedScriptBytes: { proxy: f.scripts.proxy.size, state: f.scripts.state.size, library: f.scripts.library.size },
    paths,
  };
}
