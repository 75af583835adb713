/**
 * Where the chain is, in the words the pages use (docs/web-pages.md#where-the-chain-is): the network's name, a
 * transaction's page on a public explorer (`EXPLORER_URL`, none on the devnet), and where test ADA comes from.
 */

/** What the pages say about the chain the service runs on. */
export interface ChainPlace {
  /** `devnet`, `preview`, `preprod` or `mainnet` (NETWORK). */
  network: string;
  /** An explorer's transaction page with `{tx}` for the id; null = no links (the devnet, or `EXPLORER_URL=none`). */
  explorerUrl: string | null;
  /** The service serves its own faucet (`FAUCET_ENABLED`). */
  faucetEnabled: boolean;
}

/** The network as a person reads it. */
export function networkLabel(network: string): string {
  switch (network) {
    case "mainnet":
      return "Cardano mainnet";
    case "preview":
    case "preprod":
      return `Cardano ${network} testnet`;
    case "devnet":
      return "this service's private devnet";
    default:
      return `Cardano ${network}`;
  }
}

/** The explorer's page of a transaction; undefined without an explorer. */
export function explorerTxUrl(place: Pick<ChainPlace, "explorerUrl">, txHash: string): string | undefined {
  return place.explorerUrl === null ? undefined : place.explorerUrl.replace("{tx}", encodeURIComponent(txHash));
}

/** The public test networks' faucet (Cardano Foundation documentation), for wallets on preview and preprod. */
export const TESTNET_FAUCET_URL = "https://docs.cardano.org/cardano-testnets/tools/faucet";

/** Where an unfunded wallet gets test ADA: the public faucet on the testnets, the service's own on the devnet. */
export function faucetOf(place: ChainPlace): { url: string; label: string } | undefined {
  if (place.network === "preview" || place.network === "preprod")
    return { url: TESTNET_FAUCET_URL, label: `the Cardano testnet faucet (choose ${place.network})` };
  if (place.network === "devnet" && place.faucetEnabled)
    return {
      url: "/api/v1/openapi.json",
      label: "this devnet's faucet (POST /api/v1/faucet/request, then /faucet/claim, signed with your wallet)",
    };
  return undefined;
}
