// `npm run devnet`: the embedded devnet as a standalone Ogmios-compatible server.
// Env: DEVNET_HOST (127.0.0.1), DEVNET_PORT (1337; 0 = any free port), DEVNET_DATA_DIR (unset = memory only),
// DEVNET_BLOCK_TIME_MS (1000), DEVNET_GENESIS ("addr_test1…=lovelace,addr_test1…=lovelace"),
// DEVNET_TEST_CONTROL=1 or `--test-control` to enable devnet/produceBlock and devnet/rollback.
import { Devnet, startDevnetServer } from "../shared/devnet";

function parseGenesis(text: string | undefined): { address: string; lovelace: bigint }[] | undefined {
  if (!text || text.trim() === "") return undefined;
  return text.split(",").map((entry) => {
    const [address, amount] = entry.trim().split("=");
    if (!address || !amount || !/^\d+$/.test(amount)) throw new Error(`DEVNET_GENESIS entry '${entry}' is not addr=lovelace`);
    return { address, lovelace: BigInt(amount) };
  });
}

async function main(): Promise<void> {
  const genesis = parseGenesis(process.env.DEVNET_GENESIS);
  const dataDir = process.env.DEVNET_DATA_DIR || undefined;
  const blockTimeMs = Number(process.env.DEVNET_BLOCK_TIME_MS ?? 1000);
  const devnet = await Devnet.create({ ...(genesis ? { genesis } : {}), ...(dataDir ? { dataDir } : {}), blockTimeMs });
  const server = await startDevnetServer(devnet, {
    host: process.env.DEVNET_HOST ?? "127.0.0.1",
    port: Number(process.env.DEVNET_PORT ?? 1337),
    testControl: process.argv.includes("--test-control") || process.env.DEVNET_TEST_CONTROL === "1",
  });
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const funds = devnet.genesisFunds();
  if (funds.length === 0) out("no funded addresses (set DEVNET_GENESIS=addr_test1…=lovelace,…)");
  for (const fund of funds) out(`funded ${fund.address} ${fund.lovelace} lovelace`);
  out(
    `network id 0 (testnet), slot length 1 s, block every ${blockTimeMs} ms while the mempool is not empty${dataDir ? `, chain in ${dataDir}` : ", memory only"}`,
  );
  out(`devnet listening on ${server.url} (Ogmios v6 JSON-RPC; HTTP GET /health on the same port)`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    await devnet.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

main().catch((err: unknown) => {
  process.stderr.write(`devnet failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
