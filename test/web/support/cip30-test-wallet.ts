/**
 * A software CIP-30 wallet backed by the repository's Wallet (shared/wallet): for the published client's
 * `signTx` callback, and injected into pages as `window.cardano.testwallet`, whose `signTx` calls back into node
 * through a Playwright binding so the real key signs and never enters the page.
 */
import type { BrowserContext } from "playwright-core";
import { CSL } from "../../../shared/csl/lib";
import type { Wallet } from "../../../shared/wallet";

/** CIP-30 addresses are hex bytes. */
export function addressHex(bech32: string): string {
  return CSL.Address.from_bech32(bech32).to_hex();
}

/** `signTx(tx, partialSign)` of CIP-30: the witness set. */
export function cip30SignTx(wallet: Wallet): (tx: string) => Promise<string> {
  return async (tx) => wallet.signTx(tx);
}

/** Injects `window.cardano.testwallet` into every page of the context; returns how many times it signed. */
export async function injectTestWallet(context: BrowserContext, wallet: Wallet): Promise<{ signatures(): number }> {
  let count = 0;
  await context.exposeBinding("__testWalletSignTx", (_source, tx: string) => {
    count++;
    return wallet.signTx(tx);
  });
  const hex = addressHex(wallet.address);
  await context.addInitScript({
    content: `(() => {
  const address = ${JSON.stringify(hex)};
  const api = {
    getNetworkId: async () => ${wallet.networkId},
    getChangeAddress: async () => address,
    getUsedAddresses: async () => [address],
    signTx: (tx, partialSign) => window.__testWalletSignTx(tx, partialSign),
  };
  window.cardano = Object.assign(window.cardano || {}, {
    testwallet: { name: "Test wallet", apiVersion: "0.1.0", icon: "", isEnabled: async () => true, enable: async () => api },
  });
})();`,
  });
  return { signatures: () => count };
}
