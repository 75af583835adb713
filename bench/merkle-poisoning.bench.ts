/**
 * The leaf-index poisoning attack (docs/merkle-batches.md#storage) on the embedded mesh and devnet (SQLite files), with the
 * attack's own shape: a victim anchors POISON_BENCH_VICTIM_LEAVES hashes (default 10,000); then a stranger builds,
 * without signing, one batch of POISON_BENCH_LEAVES leaves (default 1,000,000) that all share the first four hex
 * digits of one of the victim's hashes; then the stranger pays and anchors that batch. After each step, one request
 * at a time and then eight at once: `GET /verify/{hash}` and `GET /proof/{hash}` of the victim's hash, alternating
 * with `GET /extensions` (a trivial route of the same gateway) as the floor. Ratios: each p99 after an attack step
 * against the same p99 before the attack (the target: at most 2×), and the floor route's p99 while eight proofs run
 * against its p99 before. POISON_BENCH_SAMPLES (default 300) sets the requests of each kind per step.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { http, pollUntil } from "../fixtures/mesh/helpers";
import { IssuanceWorld, ISSUANCE_SERVICES, type BuildBody } from "../fixtures/issuance/issuance-world";
import { createStore } from "../shared/store";
import { percentile } from "./percentile";
import type { Ratio } from "./run";

const SAMPLES = Number(process.env["POISON_BENCH_SAMPLES"] ?? 300);
const hex = (b: Buffer) => b.toString("hex");
const CONCURRENT = 8;

interface Figures {
  verifyP50: number;
  verifyP99: number;
  proofP50: number;
  proofP99: number;
  floorP50: number;
  floorP99: number;
  /** p99 of the floor route while CONCURRENT proof lookups of the victim's hash run */
  floorUnderProofsP99: number;
  proofUnderLoadP99: number;
}

async function timed(url: string): Promise<number> {
  const t0 = performance.now();
  const res = await http(url);
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${res.text}`);
  return performance.now() - t0;
}

async function measure(api: string, leaf: string): Promise<Figures> {
  const verify: number[] = [];
  const proof: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    verify.push(await timed(`${api}/verify/${leaf}`));
    proof.push(await timed(`${api}/proof/${leaf}`));
    floor.push(await timed(`${api}/extensions`));
  }
  const underLoad: number[] = [];
  const floorUnderLoad: number[] = [];
  for (let i = 0; i < SAMPLES / 10; i++) {
    const proofs = Array.from({ length: CONCURRENT }, () => timed(`${api}/proof/${leaf}`));
    floorUnderLoad.push(await timed(`${api}/extensions`));
    underLoad.push(...(await Promise.all(proofs)));
  }
  return {
    verifyP50: percentile(verify, 50),
    verifyP99: percentile(verify, 99),
    proofP50: percentile(proof, 50),
    proofP99: percentile(proof, 99),
    floorP50: percentile(floor, 50),
    floorP99: percentile(floor, 99),
    floorUnderProofsP99: percentile(floorUnderLoad, 99),
    proofUnderLoadP99: percentile(underLoad, 99),
  };
}

const ratio = (after: number, before: number, what: string): Ratio => ({
  value: Math.round((after / Math.max(before, 0.01)) * 100) / 100,
  target: 2,
  lowerIsBetter: true,
  figure: `${after} ms p99, ${what}`,
  reference: `${before} ms p99 before the attack`,
});

export default async function (): Promise<Record<string, unknown>> {
  const victimLeaves = Number(process.env["POISON_BENCH_VICTIM_LEAVES"] ?? 10_000);
  const attackLeaves = Number(process.env["POISON_BENCH_LEAVES"] ?? 1_000_000);
  // SQLite files, the store `npm start` runs on
  const dataDir = await mkdtemp(join(tmpdir(), "merkle-poisoning-"));
  const w = await IssuanceWorld.create(
    ISSUANCE_SERVICES,
    {
      BATCH_LEAVES_PER_CLIENT: String(victimLeaves + 2 * attackLeaves + 2),
      RATE_LIMIT_POST_PER_MINUTE: "100000",
      RATE_LIMIT_READ_PER_MINUTE: "0",
    },
    () => createStore({ dataDir }),
  );
  const build = async (leaves: Buffer, address: string): Promise<BuildBody> => {
    const res = await http(`${w.mesh.api}/batch/build?address=${address}`, {
      method: "POST",
      headers: { "Content-Type": "application/octet-stream" },
      body: leaves,
    });
    if (res.status !== 200) throw new Error(`batch build: ${res.status} ${res.text}`);
    return res.json as BuildBody;
  };
  const proofs = async (leaf: string): Promise<number> => {
    const res = await http(`${w.mesh.api}/proof/${leaf}`);
    return res.status === 200 ? (res.json as unknown[]).length : 0;
  };
  try {
    await w.mintDefaultBootstrap();
    const { alice, bob } = w.f.actors;
    await w.ensureCollateral(alice);
    await w.ensureCollateral(bob);
    const victim = randomBytes(32 * victimLeaves);
    const leafBytes = victim.subarray(32 * 17, 32 * 18);
    const leaf = leafBytes.toString("hex");
    const body = await build(victim, alice.address);
    await w.confirm(await w.signAndSubmit(body.unsignedTransaction!, [alice]));
    await pollUntil(async () => ((await proofs(leaf)) === 1 ? true : undefined), "the victim's hash proves", 120_000);
    const before = await measure(w.mesh.api, leaf);

    const attack = randomBytes(32 * attackLeaves);
    for (let i = 0; i < attackLeaves; i++) leafBytes.copy(attack, i * 32, 0, 2);
    let t0 = performance.now();
    await build(attack, bob.address);
    const unsignedBuildMs = Math.round(performance.now() - t0);
    const afterUnsigned = await measure(w.mesh.api, leaf);

    t0 = performance.now();
    await w.confirm(await w.signAndSubmit((await build(attack, bob.address)).unsignedTransaction!, [bob]));
    await pollUntil(async () => ((await proofs(hex(attack.subarray(0, 32)))) === 1 ? true : undefined), "the attack tree indexed", 600_000);
    const anchorAndIndexMs = Math.round(performance.now() - t0);
    const afterAnchored = await measure(w.mesh.api, leaf);

    const ratios: Record<string, Ratio> = {
      verifyAfterUnsignedBuild: ratio(afterUnsigned.verifyP99, before.verifyP99, "GET /verify after an unsigned 1M-leaf build"),
      proofAfterUnsignedBuild: ratio(afterUnsigned.proofP99, before.proofP99, "GET /proof after an unsigned 1M-leaf build"),
      verifyAfterAnchoredAttack: ratio(afterAnchored.verifyP99, before.verifyP99, "GET /verify after the attack batch is anchored"),
      proofAfterAnchoredAttack: ratio(afterAnchored.proofP99, before.proofP99, "GET /proof after the attack batch is anchored"),
      floorUnder8ProofsAfterAnchoredAttack: ratio(
        afterAnchored.floorUnderProofsP99,
        before.floorUnderProofsP99,
        "GET /extensions while 8 proofs of the hash run, attack anchored",
      ),
    };
    return {
      victimLeaves,
      attackLeaves,
      before,
      afterUnsigned,
      afterAnchored,
      unsignedBuildMs,
      anchorAndIndexMs,
      ratios,
      peakRssMb: Math.round((process.resourceUsage().maxRSS * 1024) / 1024 / 1024),
    };
  } finally {
    await w.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
