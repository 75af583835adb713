/**
 * The aggregated calendar (docs/merkle-batches.md#aggregated-calendar) on the embedded mesh and devnet:
 * - intake: CALENDAR_BENCH_HASHES hashes (default 100,000) through `POST /batch/submit` in requests of 5,000, four
 *   at a time, in hashes per second; beside two ceilings measured in the same run with the same request bodies:
 *   plain HTTP (a bare node:http server that parses each JSON body and answers a JSON of receipts of the same
 *   shape), and the same request documents (one per request, the hashes packed) inserted straight into a store.
 *   Both HTTP sides first take WARM_UP untimed requests, then alternate in rounds of ROUND_REQUESTS requests, so both
 *   see the same load on a shared machine;
 * - the round: from the last request until every receipt says `submitted`: the log takes the hashes (every
 *   LOG_INTEGRATE_MS), and the next anchoring round (every ROUND_INTERVAL_MS, so rounds also run during the intake)
 *   extends the log's lookups to its checkpoint and sends the service wallet's transaction anchoring it.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { http, pollUntil, postJson } from "../fixtures/mesh/helpers";
import { IssuanceWorld, ISSUANCE_SERVICES } from "../fixtures/issuance/issuance-world";
import { defaultBootstrap } from "../fixtures/onchain/protocol-fixture";
import type { CalendarReceipt, SubmitAnswer } from "../shared/merkle";
import { createStore } from "../shared/store";
import { generateMnemonic, Wallet } from "../shared/wallet";
import type { Ratio } from "./run";

const PER_REQUEST = 5_000;
const CONCURRENCY = 4;
/** Requests sent (and not timed) before each timed intake, so both sides run warm. */
const WARM_UP = 4;
/** Requests per alternating round (plain HTTP, then the calendar). */
const ROUND_REQUESTS = 4;
/** BATCH_INTERVAL_MS of the run. */
const ROUND_INTERVAL_MS = 2_000;
const ms = (t0: number) => Math.round(performance.now() - t0);
const perSecond = (n: number, took: number) => Math.round((n / Math.max(took, 1)) * 1000);

const warmUpRequests = () =>
  Array.from({ length: WARM_UP }, () => Array.from({ length: PER_REQUEST }, () => randomBytes(32).toString("hex")));

/** POSTs every request body to `url`, CONCURRENCY at a time: the time taken and each answer's first receipt id. */
async function sendAll(url: string, requests: readonly string[][]): Promise<{ ms: number; receipts: string[] }> {
  const receipts: string[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < requests.length) {
        const hashes = requests[next++]!;
        const res = await postJson(url, { hashes });
        if (res.status !== 202) throw new Error(`submit: ${res.status} ${res.text.slice(0, 300)}`);
        receipts.push((res.json as SubmitAnswer).receipts[0]!.receiptId);
      }
    }),
  );
  return { ms: ms(t0), receipts };
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Ceiling: a bare node:http server that parses each JSON body and answers receipts of the same shape. */
async function startPlainHttp(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    void bodyOf(req).then((text) => {
      const { hashes } = JSON.parse(text) as { hashes: string[] };
      const request = randomBytes(12).toString("hex");
      const receipts = hashes.map((hash, i) => ({ receiptId: `${request}${i.toString(16).padStart(8, "0")}`, hash }));
      res.writeHead(202, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ status: "pending", receipts }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Ceiling: the request documents (one per request, hashes packed) inserted straight into an in-memory store. */
async function storeInsertMs(requests: readonly string[][]): Promise<number> {
  const store = await createStore({ inMemory: true });
  try {
    const docs = store.collection<{ _id: string; hashes: string; count: number; submittedAt: number; pendingLeaves: number }>(
      "merkle_calendar_requests",
    );
    await docs.ensureIndexes([{ fields: { pendingLeaves: 1 } }]);
    const t0 = performance.now();
    for (const hashes of requests) {
      await docs.insertOne({
        _id: randomBytes(12).toString("hex"),
        hashes: hashes.join(""),
        count: hashes.length,
        submittedAt: Date.now(),
        pendingLeaves: hashes.length,
      });
    }
    return ms(t0);
  } finally {
    await store.close();
  }
}

export default async function (): Promise<Record<string, unknown>> {
  const n = Number(process.env["CALENDAR_BENCH_HASHES"] ?? 100_000);
  const requests = Array.from({ length: Math.ceil(n / PER_REQUEST) }, (_, i) =>
    Array.from({ length: Math.min(PER_REQUEST, n - i * PER_REQUEST) }, () => randomBytes(32).toString("hex")),
  );
  const storeMs = await storeInsertMs(requests);
  const plain = await startPlainHttp();

  const mnemonic = generateMnemonic();
  const serviceWallet = Wallet.fromMnemonic(mnemonic, { networkId: 0 });
  const w = await IssuanceWorld.create([...ISSUANCE_SERVICES, "calendar"], {
    SERVICE_MNEMONIC: mnemonic,
    BATCH_INTERVAL_MS: String(ROUND_INTERVAL_MS),
    BATCH_MAX_PENDING_PER_CLIENT: String(n + WARM_UP * PER_REQUEST),
    BATCH_SUBMIT_MAX_HASHES: String(PER_REQUEST),
    // the intake is the figure here, not the gateway's per-client POST limit (20 a minute by default)
    RATE_LIMIT_POST_PER_MINUTE: "100000",
  });
  try {
    await w.f.mintBootstrap(defaultBootstrap(w.f.actors));
    await w.fundServiceWallet(serviceWallet);

    // Alternating rounds of ROUND_REQUESTS requests, plain HTTP then the calendar, so both see the same machine load.
    const warm = await sendAll(`${w.mesh.api}/batch/submit`, warmUpRequests());
    await sendAll(plain.url, warmUpRequests());
    const sent = { ms: 0, receipts: [] as string[] };
    let httpMs = 0;
    for (let r = 0; r < requests.length; r += ROUND_REQUESTS) {
      const round = requests.slice(r, r + ROUND_REQUESTS);
      httpMs += (await sendAll(plain.url, round)).ms;
      const mesh = await sendAll(`${w.mesh.api}/batch/submit`, round);
      sent.ms += mesh.ms;
      sent.receipts.push(...mesh.receipts);
    }
    const lastRequestAt = performance.now();
    await pollUntil(
      async () => {
        const all = await Promise.all(
          [...warm.receipts, ...sent.receipts].map(
            async (id) => ((await http(`${w.mesh.api}/batch/receipt/${id}`)).json as CalendarReceipt).status,
          ),
        );
        return all.every((s) => s === "submitted") ? true : undefined;
      },
      "the round's transaction sent",
      600_000,
    );
    const roundMs = ms(lastRequestAt);
    const intake = perSecond(n, sent.ms);
    const ratios: Record<string, Ratio> = {
      intakeVsPlainHttp: {
        value: Math.round((intake / perSecond(n, httpMs)) * 100) / 100,
        figure: `${intake.toLocaleString("en")} hashes/s through POST /batch/submit`,
        reference: `${perSecond(n, httpMs).toLocaleString("en")} hashes/s, plain node:http parsing the same bodies`,
      },
      intakeVsStoreInserts: {
        value: Math.round((intake / perSecond(n, storeMs)) * 100) / 100,
        figure: `${intake.toLocaleString("en")} hashes/s through POST /batch/submit`,
        reference: `${perSecond(n, storeMs).toLocaleString("en")} hashes/s, one store insert per request of the same bytes`,
      },
    };
    return {
      hashes: n,
      intake: {
        ms: sent.ms,
        hashesPerSecond: intake,
        plainHttpMs: httpMs,
        plainHttpHashesPerSecond: perSecond(n, httpMs),
        storeInsertMs: storeMs,
        storeInsertHashesPerSecond: perSecond(n, storeMs),
      },
      ratios,
      roundUntilSubmittedMs: roundMs,
      peakRssMb: Math.round((process.resourceUsage().maxRSS * 1024) / 1024 / 1024),
    };
  } finally {
    await plain.close();
    await w.close();
  }
}
