/**
 * `npm run soak -- --minutes N [--wallets W]`: the embedded default (every service and the devnet in this process,
 * the store (SQLite by default) and the devnet's block log under a fresh DATA_DIR, one block a second) issues and verifies certificates
 * continuously through the public HTTP API, W wallets at once, for N minutes. Every minute it prints one line:
 * certificates issued so far, RSS, heap used, open handles (libuv resources), the store's and the devnet's size on
 * disk (heap after a full garbage collection). At the end one JSON summary with the first and last samples. Not part of CI: it shows memory and handles
 * stay flat over time, which a test cannot assert without timers.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { generateMnemonic, Wallet } from "../shared/wallet";
import { IssuingWallet } from "../fixtures/faults/issuing-wallet";
import { startEmbeddedApp } from "../fixtures/processes/embedded-app";

interface Sample {
  minute: number;
  issued: number;
  rssMb: number;
  heapUsedMb: number;
  openHandles: number;
  storeKb: number;
  devnetKb: number;
}

function dirBytes(dir: string, filter: (name: string) => boolean = () => true): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) total += dirBytes(p, filter);
    else if (filter(entry.name)) total += statSync(p).size;
  }
  return total;
}

const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { minutes: { type: "string", default: "5" }, wallets: { type: "string", default: "2" } } });
  const minutes = Number(values.minutes);
  const walletCount = Number(values.wallets);
  if (!(minutes > 0) || !(walletCount >= 1 && walletCount <= 20)) throw new Error("usage: npm run soak -- --minutes N [--wallets 1..20]");
  const wallets = Array.from({ length: walletCount }, () => Wallet.fromMnemonic(generateMnemonic()));
  const app = await startEmbeddedApp({
    blockTimeMs: 1000,
    extraGenesis: wallets.map((w) => ({ address: w.address, lovelace: 100_000_000_000n })),
  });
  const started = Date.now();
  const endAt = started + minutes * 60_000;
  const clients = wallets.map((wallet) => new IssuingWallet({ api: () => app.api, wallet, stopped: () => Date.now() > endAt }));
  const samples: Sample[] = [];
  // `npm run soak` runs with --expose-gc: each sample is taken after a full collection, so heap shows what is retained
  const gc = (globalThis as { gc?: () => void }).gc;
  const sample = (): Sample => {
    gc?.();
    const mem = process.memoryUsage();
    const s: Sample = {
      minute: Math.round((Date.now() - started) / 60_000),
      issued: clients.reduce((n, c) => n + c.confirmed.length, 0),
      rssMb: mb(mem.rss),
      heapUsedMb: mb(mem.heapUsed),
      openHandles: process.getActiveResourcesInfo().length,
      storeKb: Math.round(dirBytes(app.dataDir, (n) => n.endsWith(".db") || n.startsWith("store.sqlite")) / 1024),
      devnetKb: Math.round(dirBytes(join(app.dataDir, "devnet")) / 1024),
    };
    samples.push(s);
    process.stdout.write(
      `minute ${s.minute}: issued ${s.issued}, rss ${s.rssMb} MB, heap ${s.heapUsedMb} MB, handles ${s.openHandles}, store ${s.storeKb} KiB, devnet ${s.devnetKb} KiB\n`,
    );
    return s;
  };
  process.stdout.write(`soak: ${walletCount} wallets, ${minutes} min, DATA_DIR ${app.dataDir}\n`);
  sample();
  const timer = setInterval(sample, 60_000);
  let failures = 0;
  try {
    await Promise.all(clients.map((c) => c.ensureCollateral()));
    await Promise.all(
      clients.map(async (c, w) => {
        for (let n = 0; Date.now() < endAt; n++) {
          try {
            await c.issue(`soak-${w}-${n}`);
          } catch (err) {
            if (Date.now() < endAt) {
              failures++;
              process.stdout.write(`wallet ${w}: ${String(err)}\n`);
            }
          }
        }
      }),
    );
  } finally {
    clearInterval(timer);
  }
  const last = sample();
  const first = samples[0]!;
  const second = samples[1] ?? first;
  const summary = {
    minutes,
    wallets: walletCount,
    issued: last.issued,
    failures,
    serverErrors: clients.flatMap((c) => c.serverErrors).length,
    unverifiedAfterConfirm: clients.flatMap((c) => c.unverifiedAfterConfirm).length,
    first,
    afterOneMinute: second,
    last,
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
  await app.stop();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${String(err instanceof Error ? err.stack : err)}\n`);
    process.exit(1);
  },
);
