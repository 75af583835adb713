/**
 * The aggregated calendar (docs/merkle-batches.md#aggregated-calendar) on the embedded mesh and devnet:
 * - ingestion: CALENDAR_BENCH_HASHES hashes (default 100,000) through `POST /batch/submit` in requests of 5,000, four
 *   at a time, in hashes per second; beside its floor measured in the same run: the same leaf documents inserted
 *   straight into a store (no HTTP, no parsing, no receipts);
 * - the round: the last request brings the pending count to BATCH_MAX_LEAVES (= the hash count), which starts a
 *   round at once: tree, storage, the service wallet's transaction; timed until every receipt says `submitted`.
 */
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { http, pollUntil, postJson } from "../fixtures/mesh/helpers";
import { IssuanceWorld, ISSUANCE_SERVICES } from "../fixtures/issuance/issuance-world";
import { defaultBootstrap } from "../fixtures/onchain/protocol-fixture";
import type { CalendarReceipt, SubmitAnswer } from "../shared/merkle";
import { createStore } from "../shared/store";
import { generateMnemonic, Wallet } from "../shared/wallet";

const PER_REQUEST = 5_000;
const CONCURRENCY = 4;
const ms = (t0: number) => Math.round(performance.now() - t0);

export default async function (): Promise<Record<string, unknown>> {
  const n = Number(process.env["CALENDAR_BENCH_HASHES"] ?? 100_000);
  const requests = Array.from({ length: Math.ceil(n / PER_REQUEST) }, (_, i) =>
    Array.from({ length: Math.min(PER_REQUEST, n - i * PER_REQUEST) }, () => randomBytes(32).toString("hex")),
  );

  // Floor: the same documents straight into an in-memory store.
  const floorStore = await createStore({ inMemory: true });
  const leaves = floorStore.collection<{
    _id: string;
    hash: string;
    submittedAt: number;
    request: string;
    position: number;
    round: string;
  }>("merkle_calendar_leaves");
  await leaves.ensureIndexes([{ fields: { round: 1, submittedAt: 1, request: 1, position: 1 } }]);
  let t0 = performance.now();
  for (const hashes of requests) {
    const request = randomBytes(8).toString("hex");
    await leaves.insertMany(
      hashes.map((hash, position) => ({
        _id: randomBytes(16).toString("hex"),
        hash,
        submittedAt: Date.now(),
        request,
        position,
        round: "",
      })),
    );
  }
  const floorMs = ms(t0);
  await floorStore.close();

  const mnemonic = generateMnemonic();
  const serviceWallet = Wallet.fromMnemonic(mnemonic, { networkId: 0 });
  const w = await IssuanceWorld.create(ISSUANCE_SERVICES, {
    SERVICE_MNEMONIC: mnemonic,
    BATCH_INTERVAL_MS: "3600000",
    BATCH_MAX_LEAVES: String(n),
    BATCH_SUBMIT_MAX_HASHES: String(PER_REQUEST),
  });
  try {
    await w.f.mintBootstrap(defaultBootstrap(w.f.actors));
    const bob = w.f.actors.bob;
    await w.f.chain.submit(
      {
        utxos: w.f.chain.utxosAt(bob.address),
        changeAddress: bob.address,
        outputs: [{ address: serviceWallet.address, lovelace: 500_000_000n }],
      },
      [bob],
    );
    await w.ensureCollateral(serviceWallet);

    const receipts: string[] = [];
    let next = 0;
    t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests.length) {
          const hashes = requests[next++]!;
          const res = await postJson(`${w.mesh.api}/batch/submit`, { hashes });
          if (res.status !== 202) throw new Error(`submit: ${res.status} ${res.text.slice(0, 300)}`);
          receipts.push((res.json as SubmitAnswer).receipts[0]!.receiptId);
        }
      }),
    );
    const ingestMs = ms(t0);
    const lastRequestAt = performance.now();
    await pollUntil(
      async () => {
        const all = await Promise.all(
          receipts.map(async (id) => ((await http(`${w.mesh.api}/batch/receipt/${id}`)).json as CalendarReceipt).status),
        );
        return all.every((s) => s === "submitted") ? true : undefined;
      },
      "the round's transaction sent",
      600_000,
    );
    const roundMs = ms(lastRequestAt);
    return {
      hashes: n,
      ingestion: {
        ms: ingestMs,
        hashesPerSecond: Math.round((n / Math.max(ingestMs, 1)) * 1000),
        storeInsertFloorMs: floorMs,
        storeInsertFloorHashesPerSecond: Math.round((n / Math.max(floorMs, 1)) * 1000),
        ratioToFloor: Math.round((ingestMs / Math.max(floorMs, 1)) * 10) / 10,
      },
      roundUntilSubmittedMs: roundMs,
      peakRssMb: Math.round((process.resourceUsage().maxRSS * 1024) / 1024 / 1024),
    };
  } finally {
    await w.close();
  }
}
