/**
 * What the issue flow says, in the user's terms (docs/web-pages.md#issuing): the service's build answers are meant
 * for API clients ("… forked; sign and submit", "Call POST /api/v1/transaction/prepare-collateral"), so the page
 * words each answer by its `status.code` instead, names the network, links a transaction to the network's explorer,
 * and points an unfunded wallet at the faucet on the devnet and the testnets. The network, explorer and faucet come
 * from the page's <meta> tags (shared/web-pages/home-page.ts).
 */
import { meta } from "./dom";

/** A link inside a sentence. */
export interface Link {
  href: string;
  text: string;
}

/** A sentence: text, or text and links in order. */
export type Said = string | ReadonlyArray<string | Link>;

/** The network as the page names it ("Cardano preview testnet", "this service's private devnet"). */
export const networkName = (): string => meta("cert-anchor-network-label") || meta("cert-anchor-network");

/** The explorer's page of a transaction, when the network has one. */
export function explorerLink(txHash: string): Link | undefined {
  const template = meta("cert-anchor-explorer");
  return template === "" ? undefined : { href: template.replace("{tx}", encodeURIComponent(txHash)), text: "view it on the explorer" };
}

/** A transaction id, then its explorer link when there is one. */
export function transactionSaid(txHash: string): Array<string | Link> {
  const link = explorerLink(txHash);
  return link === undefined ? [txHash] : [txHash, " (", link, ")"];
}

/** The public faucet's page (the testnets); undefined elsewhere. */
function faucetLink(): Link | undefined {
  const href = meta("cert-anchor-faucet-url");
  return href === "" ? undefined : { href, text: meta("cert-anchor-faucet-label") || "the faucet" };
}

/** The service runs a faucet of its own (the devnet): the page asks it for the connected wallet. */
export const hasServiceFaucet = (): boolean => meta("cert-anchor-faucet") === "service";

const hashes = (n: number) => (n === 1 ? "1 hash" : `${n} hashes`);

export const WORDS = {
  faucetAsking: "Asking the faucet…",
  faucetSign: "Sign the faucet's message in your wallet (it shows the address is yours; nothing is spent)",
  faucetSent: (ada: string, txHash: string): Said => [
    `The faucet sent ${ada} ADA in transaction `,
    ...transactionSaid(txHash),
    "; waiting for a block…",
  ],
  faucetArrived: (ada: string) => `${ada} ADA arrived in your wallet: you can issue now.`,
  faucetFailed: (why: string) => `The faucet did not pay: ${why}`,
  preparing: (n: number) => `Preparing the transaction that anchors ${hashes(n)} on ${networkName()} (nothing is sent yet)`,
  prepared: (n: number) => `Prepared the certificate transaction: it anchors ${hashes(n)} on ${networkName()}`,
  waitingForPrevious: (attempt: number, of: number) =>
    `Your wallet's previous transaction is not in a block yet; trying again in 3 s (${attempt} of ${of})`,
  collateralNeeded:
    "Your wallet first needs a collateral: 5 ADA in an output of its own, which the network keeps only if a script fails. Setting it aside takes one extra transaction.",
  preparingCollateral: "Preparing the collateral transaction",
  preparedCollateral: "Prepared the collateral transaction",
  collateralThere: "Your wallet already has a collateral",
  preparingAgain: "Preparing the certificate transaction",
  sign: (label: string) => `Sign the ${label} in your wallet`,
  signed: (label: string) => `Signed the ${label}`,
  notSigned: (why: string) => `Your wallet did not sign (${why}). Nothing was sent.`,
  sending: (label: string) => `Sending the ${label} to ${networkName()}`,
  sent: (label: string, txHash: string): Said => [`Sent the ${label} to ${networkName()}: `, ...transactionSaid(txHash)],
  notSent: (why: string) => `The transaction was not sent to ${networkName()}: ${why}`,
};

/**
 * A build or prepare-collateral answer that is not a success, in the user's terms. An unfunded wallet is told once,
 * with the faucet where there is one; an answer the page has no words for is shown as the service wrote it (its
 * messages always say what to do next).
 */
export function refusalSaid(code: string, serviceMessage: string): Said {
  switch (code) {
    case "INSUFFICIENT_FUNDS": {
      const faucet = faucetLink();
      const head = `Your wallet does not hold enough ADA on ${networkName()} to pay for this transaction and its collateral.`;
      if (hasServiceFaucet()) return `${head} Get test ADA from this devnet's faucet with the button below, then issue again.`;
      return faucet === undefined
        ? `${head} Add ADA to the wallet, then issue again.`
        : [`${head} Get test ADA from `, faucet, ", wait until it arrives in your wallet, then issue again."];
    }
    case "COLLATERAL_REQUIRED":
      return "Your wallet's collateral is not usable yet (its transaction may still be on its way). Wait a minute, then issue again.";
    case "PENDING_TRANSACTION":
      return "Your wallet's previous transaction is still not in a block. Wait a minute, then issue again.";
    default:
      return serviceMessage;
  }
}

/** A failure already shown in the progress list: the page does not say it a second time. */
export class SaidError extends Error {}
