/**
 * A software CIP-30 wallet backed by the repository's Wallet (shared/wallet): for the published client's
 * `signTx` callback, and injected into pages as `window.cardano.testwallet`, whose `signTx` and `signData` call back into node
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

/** Injects `window.cardano.testwallet` into every page of the context; returns how many times it signed a transaction. */
export async function injectTestWallet(context: BrowserContext, wallet: Wallet): Promise<{ signatures(): number }> {
  let count = 0;
  await context.exposeBinding("__testWalletSignTx", (_source, tx: string) => {
    count++;
    return wallet.signTx(tx);
  });
  // CIP-30 signData with the key of the wallet's (change) address, the one the page passes.
  await context.exposeBinding("__testWalletSignData", (_source, _address: string, payload: string) => wallet.signData(payload));
  const hex = addressHex(wallet.address);
  await context.addInitScript({
    content: `(() => {
  const address = ${JSON.stringify(hex)};
  const api = {
    getNetworkId: async () => ${wallet.networkId},
    getChangeAddress: async () => address,
    getUsedAddresses: async () => [address],
    signTx: (tx, partialSign) => window.__testWalletSignTx(tx, partialSign),
    signData: (addr, payload) => window.__testWalletSignData(addr, payload),
  };
  window.cardano = Object.assign(window.cardano || {}, {
    testwallet: { name: "Test wallet", apiVersion: "0.1.0", icon: "", isEnabled: async () => true, enable: async () => api },
  });
})();`,
  });
  return { signatures: () => count };
}
