/**
 * Where a public block explorer shows a transaction (`EXPLORER_URL`): a URL template holding `{tx}`, with a default
 * per public network and none on the devnet, whose chain exists only inside this service.
 */
import type { Network } from "./env-vars";

/** The placeholder `EXPLORER_URL` must hold; the pages put the transaction id there. */
export const EXPLORER_TX_PLACEHOLDER = "{tx}";

/** Cardanoscan's transaction pages on each public network; the devnet has no explorer. */
export const DEFAULT_EXPLORER_URLS: Readonly<Record<Network, string | null>> = {
  devnet: null,
  preview: "https://preview.cardanoscan.io/transaction/{tx}",
  preprod: "https://preprod.cardanoscan.io/transaction/{tx}",
  mainnet: "https://cardanoscan.io/transaction/{tx}",
};

/**
 * The explorer template for `network`: `raw` (`none` turns links off), else the network's default.
 * Returns a problem sentence instead when `raw` is not an http(s) URL holding `{tx}`.
 */
export function explorerUrlOf(network: Network, raw: string | undefined): { url: string | null } | { problem: string } {
  if (raw === undefined) return { url: DEFAULT_EXPLORER_URLS[network] };
  if (raw === "none") return { url: null };
  let scheme = "";
  try {
    scheme = new URL(raw.replace(EXPLORER_TX_PLACEHOLDER, "tx")).protocol;
  } catch {
    scheme = "";
  }
  if ((scheme !== "http:" && scheme !== "https:") || !raw.includes(EXPLORER_TX_PLACEHOLDER))
    return { problem: `EXPLORER_URL must be an http:// or https:// URL holding ${EXPLORER_TX_PLACEHOLDER}, or none.` };
  return { url: raw };
}
