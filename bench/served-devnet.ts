// A devnet served over the Ogmios protocol on a free port, with a chain client of it (the benchmarks' set-up).
import { createChainClient, type ChainClient, type ChainClientOptions } from "../shared/chain";
import { startDevnetServer, type Devnet } from "../shared/devnet";

export interface ServedDevnet {
  client: ChainClient;
  /** Closes the client, the server and the devnet. */
  close(): Promise<void>;
}

export async function serveDevnet(devnet: Devnet, clientOptions: Omit<ChainClientOptions, "url"> = {}): Promise<ServedDevnet> {
  const server = await startDevnetServer(devnet, { port: 0 });
  const client = createChainClient({ url: server.url, ...clientOptions });
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
      await devnet.close();
    },
  };
}
