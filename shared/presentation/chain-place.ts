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

/**
 * Where an unfunded wallet gets test ADA: on the testnets the public faucet (a page to open); on the devnet, whose
 * ADA exists only here, the service's own faucet, which the page asks for the connected wallet (`service`).
 */
export type Faucet = { kind: "page"; url: string; label: string } | { kind: "service"; label: string };

export function faucetOf(place: ChainPlace): Faucet | undefined {
  if (place.network === "preview" || place.network === "preprod")
    return { kind: "page", url: TESTNET_FAUCET_URL, label: `the Cardano testnet faucet (choose ${place.network})` };
  if (place.network === "devnet" && place.faucetEnabled) return { kind: "service", label: "this devnet's faucet" };
  return undefined;
}
