/**
 * Chain sync at scale: the real indexer (shared/indexer with the plugins indexer.service.ts registers, on the
 * embedded SQLite store in a fresh data folder) syncing from genesis to the tip of a devnet served over the Ogmios
 * protocol in a process of its own (bench/chain-sync-devnet.ts), for two chains:
 * - `empty`: blocks without transactions;
 * - `protocol`: every block holds one protocol transaction (a library deployment, decoded into a fact).
 * Ceiling, in the same run and against the same server: a bare Ogmios chain-sync client
 * (@cardano-ogmios/client, pipelined, the parsing the indexer's client does too) reading the same blocks and
 * doing nothing with them; it runs before and after the indexer (after one unmeasured read that warms the server
 * up) and the ratio uses their mean.
 * CPU: this process's CPU time per block, for the indexer and for the ceiling client (the devnet's is its own
 * process's): far less sensitive than blocks/s to other work on the machine, so before/after comparisons use it.
 * Memory: the indexer process's RSS sampled every 100 ms over the sync (start, peak, end), and the heap it retains
 * (after a full collection) before the sync and at the tip: flat means no growth proportional to blocks.
 *
 *   npm run bench chain-sync                      10,000 empty blocks, 2,000 protocol blocks
 *   npm run bench chain-sync -- --blocks 100000   the full figure
 *   … --protocol-blocks 5000                      a longer protocol chain (generating it costs ~4 ms a block and
 *                                                 more as the devnet's UTxO set grows)
 *   CHAIN_SYNC_PROFILE_DIR=/tmp/p node --cpu-prof --cpu-prof-dir=/tmp/p --import tsx bench/run.ts chain-sync   profiles
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { join } from "node:path";
import { createChainSynchronizationClient, createInteractionContext } from "@cardano-ogmios/client";
import type { Transaction } from "@cardano-ogmios/schema";
import { createChainClient } from "../shared/chain";
import { endpointOf } from "../shared/chain/connection";
import { Indexer } from "../shared/indexer/indexer";
import { PluginPipeline } from "../shared/indexer/plugin-pipeline";
import type { ProtocolView } from "../shared/indexer/protocol-decoder";
import { protocolViewOf } from "../shared/indexer/protocol-view";
import { createLookupPlugin } from "../shared/lookups/lookup-plugin";
import { LookupStore } from "../shared/lookups/lookup-store";
import { createSortedListPlugin, SortedListStore } from "../shared/sorted-list";
import { createStore } from "../shared/store";
import { extensionFactDecoders, extensionListLayouts } from "../shared/extensions/registry";
import type { Ratio } from "./run";

const DEFAULT_BLOCKS = 10_000;
/** Protocol blocks are slow to generate (each is built, signed and validated by the devnet's ledger rules). */
const DEFAULT_PROTOCOL_BLOCKS = 2_000;

/** The heap in use after a full collection (MB): what the process retains, unlike RSS (which keeps freed pages). */
function retainedHeapMb(): number {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
  return Math.round(process.memoryUsage().heapUsed / 1048576);
}

export type ChainKind = "empty" | "protocol";

interface ServedChain {
  url: string;
  tip: { slot: number; id: string; height: number };
  generateMs: number;
  view: {
    proxyPolicyId: string;
    proxyAddress: string;
    pointerTokenName: string;
    stateScriptHash: string;
    libraryAddress: string;
    libraryAdmin: string;
  };
  child: ChildProcess;
}

function countArgument(flag: string, fallback: number): number {
  const i = process.argv.indexOf(flag);
  const n = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a positive integer, got ${process.argv[i + 1]}`);
  return n;
}

/** Starts the devnet process and waits for its one-line description. */
export function startChain(kind: ChainKind, blocks: number): Promise<ServedChain> {
  // CHAIN_SYNC_PROFILE_DIR=<dir>: the devnet process writes a CPU profile there (run the bench itself with --cpu-prof).
  const profile = process.env["CHAIN_SYNC_PROFILE_DIR"];
  const flags = profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : [];
  const child = spawn(process.execPath, [...flags, "--require", "tsx/cjs", join(__dirname, "chain-sync-devnet.ts")], {
    cwd: join(__dirname, ".."),
    env: { ...process.env, CHAIN_SYNC_BLOCKS: String(blocks), CHAIN_SYNC_KIND: kind },
    stdio: ["pipe", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line && out.includes("\n")) resolve({ ...(JSON.parse(line) as Omit<ServedChain, "child">), child });
    });
    child.stderr!.on("data", (c: Buffer) => (err += c.toString()));
    child.once("exit", (code) => reject(new Error(`chain-sync devnet exited (${code}): ${err}`)));
  });
}

export async function stopChain(chain: ServedChain): Promise<void> {
  const exited = new Promise((r) => chain.child.once("exit", r));
  chain.child.stdin!.end();
  await exited;
}

/** CPU time (user + system, all threads) this process spent per block since `since`, in µs. */
function cpuMicrosPerBlock(since: NodeJS.CpuUsage, blocks: number): number {
  const used = process.cpuUsage(since);
  return Math.round((used.user + used.system) / blocks);
}

/** The bare client: every block read and parsed, nothing done with it. @returns blocks per second, CPU µs per block. */
export async function ceilingRun(url: string, tip: ServedChain["tip"], inFlight = 100): Promise<{ rate: number; cpuMicros: number }> {
  const endpoint = endpointOf(url);
  const { hostname, port } = new URL(endpoint.http);
  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((r) => (resolveDone = r));
  let blocks = 0;
  const context = await createInteractionContext(
    () => undefined,
    () => undefined,
    { connection: { host: hostname, port: Number(port) } },
  );
  const client = await createChainSynchronizationClient(
    context,
    {
      rollForward: ({ block }, next) => {
        blocks += 1;
        if (block.id === tip.id) resolveDone();
        else next();
        return Promise.resolve();
      },
      rollBackward: (_point, next) => {
        next();
        return Promise.resolve();
      },
    },
    { sequential: false },
  );
  const started = performance.now();
  const cpu = process.cpuUsage();
  await client.resume(["origin"], inFlight);
  await done;
  const seconds = (performance.now() - started) / 1000;
  const cpuMicros = cpuMicrosPerBlock(cpu, blocks);
  await client.shutdown();
  if (blocks !== tip.height) throw new Error(`the ceiling client read ${blocks} blocks of ${tip.height}`);
  return { rate: blocks / seconds, cpuMicros };
}

interface IndexerRun {
  blocksPerSec: number;
  seconds: number;
  /** CPU time of this process per block over the sync (the devnet runs in its own process) */
  cpuMicrosPerBlock: number;
  rssMb: { start: number; peak: number; end: number; secondHalfGrowthPer10kBlocks: number };
  /** Heap after a full collection, before the sync and at the tip (store still open). */
  retainedHeapMb: { start: number; end: number };
  facts: number;
}

/** The indexer as indexer.service.ts assembles it, from genesis to the tip. */
export async function indexerRun(chain: ServedChain, opts: { projections?: boolean } = {}): Promise<IndexerRun> {
  const dataDir = mkdtempSync(join(tmpdir(), "chain-sync-bench-"));
  const store = await createStore({ dataDir });
  const client = createChainClient({ url: chain.url });
  const pipeline = new PluginPipeline<Transaction>();
  const base = protocolViewOf(null, 0);
  const view: ProtocolView = {
    ...base,
    proxyPolicyId: chain.view.proxyPolicyId,
    proxyAddress: chain.view.proxyAddress,
    pointerTokenName: chain.view.pointerTokenName,
    stateScriptHashes: new Set([chain.view.stateScriptHash]),
    libraryAddress: chain.view.libraryAddress,
    libraryAdmin: chain.view.libraryAdmin,
  };
  const indexer = await Indexer.create({
    store,
    chain: client,
    view,
    decoders: extensionFactDecoders(0),
    pipeline,
    slotToTime: (slot) => slot * 1000,
    notify: () => undefined,
  });
  if (opts.projections !== false) {
    const lookups = await LookupStore.open(store);
    pipeline.register(
      createLookupPlugin(lookups, (tx) => indexer.isProtocolRelevant(tx)),
      { critical: true },
    );
    for (const layout of extensionListLayouts(0)) {
      pipeline.register(createSortedListPlugin(await SortedListStore.open(store, layout)), { critical: true });
    }
  }
  pipeline.startSchedulers();

  const heapStart = retainedHeapMb();
  const mb = () => Math.round(process.memoryUsage.rss() / 1048576);
  const samples: { blocks: number; rss: number }[] = [];
  const start = mb();
  const sampler = setInterval(() => samples.push({ blocks: indexer.status().blocksProcessed, rss: mb() }), 100);
  const started = performance.now();
  const cpu = process.cpuUsage();
  await indexer.start();
  while (indexer.status().blocksProcessed < chain.tip.height) await new Promise((r) => setTimeout(r, 5));
  const seconds = (performance.now() - started) / 1000;
  const cpuMicros = cpuMicrosPerBlock(cpu, chain.tip.height);
  clearInterval(sampler);
  const end = mb();
  const checkpoint = await indexer.log.checkpoint();
  if (checkpoint?.point.id !== chain.tip.id) throw new Error(`the indexer stopped at ${JSON.stringify(checkpoint)}, not the tip`);
  const facts = indexer.log.lastSeq();
  const heapEnd = retainedHeapMb();
  pipeline.stopSchedulers();
  await indexer.stop();
  await client.close();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });

  const half = samples.filter((s) => s.blocks >= chain.tip.height / 2);
  const first = half[0];
  const last = half.at(-1);
  const growth = first && last && last.blocks > first.blocks ? ((last.rss - first.rss) / (last.blocks - first.blocks)) * 10_000 : 0;
  return {
    blocksPerSec: Math.round(chain.tip.height / seconds),
    seconds: Number(seconds.toFixed(2)),
    cpuMicrosPerBlock: cpuMicros,
    rssMb: { start, peak: Math.max(start, end, ...samples.map((s) => s.rss)), end, secondHalfGrowthPer10kBlocks: Math.round(growth) },
    retainedHeapMb: { start: heapStart, end: heapEnd },
    facts,
  };
}

const TARGETS: Record<ChainKind, number> = { empty: 20_000, protocol: 5_000 };

async function measure(kind: ChainKind, blocks: number) {
  const chain = await startChain(kind, blocks);
  try {
    // One read of the whole chain first, not measured: the devnet process has just generated it (its serving path
    // cold, its heap full of generation garbage), which made the first measured read up to 2–3× slower than the one
    // after the indexer. Every measured reader then meets the same warm server.
    await ceilingRun(chain.url, chain.tip);
    const first = await ceilingRun(chain.url, chain.tip);
    const run = await indexerRun(chain);
    const second = await ceilingRun(chain.url, chain.tip);
    const [before, after] = [first.rate, second.rate];
    const ceiling = Math.round((before + after) / 2);
    const ceilingCpu = Math.round((first.cpuMicros + second.cpuMicros) / 2);
    const ratio: Ratio = {
      value: Number((run.blocksPerSec / ceiling).toFixed(2)),
      figure: `${run.blocksPerSec.toLocaleString("en")} blocks/s (target ${TARGETS[kind].toLocaleString("en")}), CPU ${run.cpuMicrosPerBlock} µs/block, RSS ${run.rssMb.start}/${run.rssMb.peak}/${run.rssMb.end} MB start/peak/end, heap after GC ${run.retainedHeapMb.start} → ${run.retainedHeapMb.end} MB`,
      reference: `${ceiling.toLocaleString("en")} blocks/s, bare Ogmios client (${Math.round(before).toLocaleString("en")} before, ${Math.round(after).toLocaleString("en")} after), CPU ${ceilingCpu} µs/block`,
    };
    process.stderr.write(
      `chain-sync ${kind}: ${ratio.value} = ${ratio.figure} / ${ratio.reference}; generated in ${chain.generateMs} ms\n`,
    );
    return {
      blocks,
      generateMs: chain.generateMs,
      ceilingBlocksPerSec: { before: Math.round(before), after: Math.round(after) },
      ceilingCpuMicrosPerBlock: ceilingCpu,
      indexer: run,
      ratio,
    };
  } finally {
    await stopChain(chain);
  }
}

export default async function chainSyncBench() {
  const blocks = countArgument("--blocks", DEFAULT_BLOCKS);
  const empty = await measure("empty", blocks);
  const protocol = await measure("protocol", countArgument("--protocol-blocks", DEFAULT_PROTOCOL_BLOCKS));
  return {
    empty,
    protocol,
    ratios: { emptyBlocksToCeiling: empty.ratio, protocolBlocksToCeiling: protocol.ratio },
  };
}
