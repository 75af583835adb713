/** A devnet + Ogmios server + chain client + funded wallet, for chain-module tests. */
import { buildPayment } from "../../../shared/csl";
import { createChainClient, type ChainClient, type ChainClientOptions } from "../../../shared/chain";
import { Devnet, startDevnetServer, type DevnetServer } from "../../../shared/devnet";
import { Wallet, generateMnemonic } from "../../../shared/wallet";

export interface Harness {
  devnet: Devnet;
  server: DevnetServer;
  client: ChainClient;
  wallet: Wallet;
  payee: Wallet;
  /** builds (csl), signs (wallet) and submits (client) a payment to the payee; returns the tx id */
  pay(lovelace?: bigint): Promise<string>;
  /** a signed payment, not submitted */
  signedPayment(lovelace?: bigint): Promise<{ txId: string; cborHex: string }>;
  /** pay + produce a block with it */
  payAndProduce(lovelace?: bigint): Promise<{ txId: string; slot: number; id: string }>;
  /** moves the devnet clock (it starts at the real time and only moves when told) */
  advance(ms: number): void;
  restartServer(): Promise<void>;
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
  /** a payment submitted straight to the devnet (no server) and a block with it */
  payDirectAndProduce(lovelace?: bigint): Promise<{ txId: string; slot: number; id: string }>;
  close(): Promise<void>;
}

export async function startHarness(clientOpts: Partial<ChainClientOptions> = {}): Promise<Harness> {
  const wallet = Wallet.fromMnemonic(generateMnemonic());
  const payee = Wallet.fromMnemonic(generateMnemonic());
  let now = Date.now();
  const devnet = await Devnet.create({ genesis: [{ address: wallet.address, lovelace: 1_000_000_000n }], clock: () => now });
  let server = await startDevnetServer(devnet, { port: 0, testControl: true });
  let port = server.port;
  const client = createChainClient({
    url: server.url,
    requestTimeoutMs: 45_000,
    reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
    ...clientOpts,
  });

  const signedPayment = async (lovelace = 2_000_000n): Promise<{ txId: string; cborHex: string }> => {
    const [pp, utxos] = await Promise.all([client.protocolParameters(), client.utxosByAddresses([wallet.address])]);
    // spend only outputs not already consumed by a mempool tx: the harness keeps one pending tx at a time
    const built = buildPayment({
      protocolParameters: pp,
      utxos,
      changeAddress: wallet.address,
      outputs: [{ address: payee.address, lovelace }],
    });
    return { txId: built.txId, cborHex: wallet.signTxFull(built.cborHex) };
  };
  const h: Harness = {
    devnet,
    get server() {
      return server;
    },
    client,
    wallet,
    payee,
    signedPayment,
    async pay(lovelace) {
      const { cborHex } = await signedPayment(lovelace);
      return client.submit(cborHex);
    },
    async payAndProduce(lovelace) {
      const txId = await h.pay(lovelace);
      now += 1_000;
      const block = devnet.produceBlock();
      if (!block) throw new Error("devnet produced no block");
      return { txId, slot: block.slot, id: block.id };
    },
    advance(ms) {
      now += ms;
    },
    async restartServer() {
      await h.stopServer();
      await h.startServer();
    },
    async stopServer() {
      port = server.port;
      await server.close();
    },
    async startServer() {
      server = await startDevnetServer(devnet, { port, testControl: true });
    },
    async payDirectAndProduce(lovelace = 2_000_000n) {
      const built = buildPayment({
        protocolParameters: devnet.protocolParameters(),
        utxos: devnet.queryUtxo({ addresses: [wallet.address] }),
        changeAddress: wallet.address,
        outputs: [{ address: payee.address, lovelace }],
      });
      const txId = await devnet.submitTransaction(wallet.signTxFull(built.cborHex));
      now += 1_000;
      const block = devnet.produceBlock();
      if (!block) throw new Error("devnet produced no block");
      return { txId, slot: block.slot, id: block.id };
    },
    async close() {
      await client.close();
      await server.close().catch(() => undefined);
      await devnet.close();
    },
  } as Harness;
  return h;
}
