// Timings of the CSL facade, the wallet and the chain client (against an in-process devnet).
import { percentile } from "./percentile";
import {
  buildPayment,
  buildTx,
  buildWithEvaluation,
  plutusScriptHash,
  scriptAddress,
  singleWrapFlat,
  type OgmiosUtxo,
} from "../shared/csl";
import { Devnet } from "../shared/devnet";
import { Wallet, generateMnemonic, verifyDataSignature } from "../shared/wallet";
import { PP, REDEEMER_42_FLAT, aUtxo } from "../fixtures/csl/fixtures";
import { uplcEvaluator } from "../fixtures/csl/uplc-evaluator";
import { serveDevnet } from "./served-devnet";

async function timeIt(n: number, fn: (i: number) => unknown): Promise<{ n: number; meanMs: number; p95Ms: number }> {
  await fn(-1); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    samples.push(performance.now() - t);
  }
  const mean = samples.reduce((a, b) => a + b, 0) / n;
  return { n, meanMs: round(mean), p95Ms: percentile(samples, 95) };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export default async function (): Promise<Record<string, unknown>> {
  const mnemonic = generateMnemonic();
  const deriveWallet = await timeIt(10, () => Wallet.fromMnemonic(mnemonic));
  const wallet = Wallet.fromMnemonic(mnemonic);
  const payee = Wallet.fromMnemonic(generateMnemonic());
  const utxos = Array.from({ length: 10 }, (_, i) => aUtxo({ address: wallet.address, lovelace: BigInt(5 + i) * 1_000_000n }));

  const payment = () =>
    buildPayment({
      protocolParameters: PP,
      utxos,
      changeAddress: wallet.address,
      outputs: [{ address: payee.address, lovelace: 12_000_000n }],
      metadata: { 674: { msg: ["certificate anchor"] } },
    });
  const buildPaymentMs = await timeIt(50, payment);
  const unsigned = payment().cborHex;
  const signTx = await timeIt(50, () => wallet.signTx(unsigned));
  const signTxFull = await timeIt(50, () => wallet.signTxFull(unsigned));
  const payloadHex = Buffer.from("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "hex").toString("hex");
  const signData = await timeIt(50, () => wallet.signData(payloadHex));
  const sig = wallet.signData(payloadHex);
  const verify = await timeIt(50, () => verifyDataSignature({ ...sig, payloadHex, address: wallet.address }));

  const script = singleWrapFlat(REDEEMER_42_FLAT);
  const lock = aUtxo({ address: scriptAddress(plutusScriptHash(script), 0), lovelace: 5_000_000n, datum: "182a" });
  const plutusSpec = {
    protocolParameters: PP,
    utxos,
    changeAddress: wallet.address,
    scriptInputs: [{ utxo: lock, script: { language: "plutus:v3" as const, cbor: script }, redeemer: "182a" }],
    mints: [{ policy: { language: "plutus:v3" as const, cbor: script }, redeemer: "182a", assets: { "6365727431": 1n } }],
    requiredSigners: [wallet.paymentKeyHash],
  };
  const plutusBuild = await timeIt(20, () => buildTx(plutusSpec));
  const evaluate = uplcEvaluator([...utxos, lock]);
  const plutusBuildWithLocalEvaluation = await timeIt(20, () => buildWithEvaluation(plutusSpec, evaluate));

  // chain client round trip against the devnet: query → build → sign → submit → block
  const devnet = await Devnet.create({ genesis: [{ address: wallet.address, lovelace: 10_000_000_000n }] });
  const chain = await serveDevnet(devnet, { requestTimeoutMs: 60_000 });
  const client = chain.client;
  let chainCycle: unknown;
  let connectMs: number;
  try {
    const t = performance.now();
    await client.connect();
    connectMs = round(performance.now() - t);
    const pp = await client.protocolParameters();
    chainCycle = await timeIt(20, async () => {
      const mine: OgmiosUtxo[] = await client.utxosByAddresses([wallet.address]);
      const built = buildPayment({
        protocolParameters: pp,
        utxos: mine,
        changeAddress: wallet.address,
        outputs: [{ address: payee.address, lovelace: 2_000_000n }],
      });
      await client.submit(wallet.signTxFull(built.cborHex));
      devnet.produceBlock();
    });
  } finally {
    await chain.close();
  }

  return {
    deriveWallet,
    buildPayment: buildPaymentMs,
    signTx,
    signTxFull,
    signData,
    verifyDataSignature: verify,
    plutusBuild,
    plutusBuildWithLocalEvaluation,
    chainConnectMs: connectMs,
    chainQueryBuildSignSubmitBlock: chainCycle,
  };
}
