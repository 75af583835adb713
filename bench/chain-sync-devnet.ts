/**
 * The chain-sync benchmark's chain, in a process of its own (as Ogmios and its node are to a deployment): a devnet
 * holding CHAIN_SYNC_BLOCKS blocks, served over the Ogmios protocol on a free port.
 * - CHAIN_SYNC_KIND=empty: blocks without transactions (`Devnet.produceEmptyBlocks`), most of a real chain;
 * - CHAIN_SYNC_KIND=protocol: every block holds one protocol transaction, a library deployment (the library
 *   administrator's signed output at the library script address carrying a small Plutus V3 reference script), which the
 *   indexer decodes into a `library.deployed` fact. Each is built, signed and submitted through the devnet's full
 *   ledger rules, then forged into a block of its own.
 * Prints one JSON line `{ url, tip, generateMs, view }` once the server listens; exits when stdin closes.
 */
import { buildTx } from "../shared/csl";
import { Devnet, startDevnetServer } from "../shared/devnet";
import { constr, dataToCborHex, deriveProtocolScripts, loadBlueprint } from "../shared/protocol";
import { Wallet, generateMnemonic } from "../shared/wallet";
import { ALWAYS_TRUE_V3 } from "../fixtures/devnet/test-scripts.generated";

async function main(): Promise<void> {
  const blocks = Number(process.env["CHAIN_SYNC_BLOCKS"] ?? 1000);
  const kind = process.env["CHAIN_SYNC_KIND"] === "protocol" ? "protocol" : "empty";
  const admin = Wallet.fromMnemonic(generateMnemonic(), { networkId: 0 });
  // Every block keeps its JSON text (as a long-running devnet keeps its newest ones), so serving is not re-projecting.
  const devnet = await Devnet.create({
    genesis: [{ address: admin.address, lovelace: 45_000_000_000_000n }],
    blockJsonCacheBytes: 2 * 1024 ** 3,
  });
  const [oneShot] = devnet.queryUtxo({ addresses: [admin.address] });
  const scripts = deriveProtocolScripts(loadBlueprint(), {
    proxyOneShot: { txHash: oneShot!.transaction.id, index: oneShot!.index },
    bootstrapAdministrators: [admin.paymentKeyHash],
    libraryAdministrator: admin.paymentKeyHash,
    networkId: 0,
  });
  const started = performance.now();
  if (kind === "empty") devnet.produceEmptyBlocks(blocks);
  else {
    const protocolParameters = devnet.protocolParameters() as unknown as Parameters<typeof buildTx>[0]["protocolParameters"];
    const unit = dataToCborHex(constr(0));
    for (let i = 0; i < blocks; i++) {
      const built = buildTx({
        protocolParameters,
        utxos: devnet.queryUtxo({ addresses: [admin.address] }),
        changeAddress: admin.address,
        outputs: [
          { address: scripts.library.address, inlineDatum: unit, referenceScript: { language: "plutus:v3", cbor: ALWAYS_TRUE_V3 } },
        ],
        requiredSigners: [admin.paymentKeyHash],
      });
      await devnet.submitTransaction(admin.signTxFull(built.cborHex));
      devnet.produceBlock();
    }
  }
  const generateMs = Math.round(performance.now() - started);
  const server = await startDevnetServer(devnet, { port: 0 });
  const view = {
    proxyPolicyId: scripts.proxy.policyId,
    proxyAddress: scripts.proxy.address,
    pointerTokenName: scripts.pointerTokenName,
    stateScriptHash: scripts.state.hash,
    libraryAddress: scripts.library.address,
    libraryAdmin: admin.paymentKeyHash,
  };
  process.stdout.write(`${JSON.stringify({ url: server.url, tip: devnet.tipWithHeight(), generateMs, view })}\n`);
  const stop = async () => {
    await server.close();
    await devnet.close();
    process.exit(0);
  };
  process.stdin.on("end", () => void stop());
  process.stdin.on("close", () => void stop());
  process.stdin.resume();
  process.on("SIGTERM", () => void stop());
}

main().catch((err: unknown) => {
  process.stderr.write(`chain-sync devnet failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
