/** CIP-30 wallets as the page sees them: `window.cardano.<id>` with `enable()` returning the API used here. */
export interface Cip30Api {
  getNetworkId(): Promise<number>;
  getChangeAddress(): Promise<string>;
  getUsedAddresses(): Promise<string[]>;
  signTx(tx: string, partialSign?: boolean): Promise<string>;
  /** CIP-30 signData (CIP-8): a COSE_Sign1 and its COSE_Key, both CBOR hex. */
  signData(address: string, payload: string): Promise<{ signature: string; key: string }>;
}

export interface Cip30Wallet {
  id: string;
  name: string;
  enable(): Promise<Cip30Api>;
}

/** The CIP-30 wallets injected into the page. */
export function installedWallets(): Cip30Wallet[] {
  const cardano = (window as unknown as { cardano?: Record<string, unknown> }).cardano;
  if (cardano === undefined || cardano === null || typeof cardano !== "object") return [];
  const wallets: Cip30Wallet[] = [];
  for (const [id, value] of Object.entries(cardano)) {
    const w = value as { name?: unknown; enable?: unknown } | null;
    if (w === null || typeof w !== "object" || typeof w.enable !== "function") continue;
    const name = typeof w.name === "string" && w.name !== "" ? w.name : id;
    wallets.push({ id, name, enable: () => (w.enable as () => Promise<Cip30Api>).call(w) });
  }
  return wallets;
}

/** A CIP-30 error (`{ code, info }`) or any other thrown value as a sentence. */
export function walletErrorMessage(err: unknown): string {
  const e = err as { info?: unknown; message?: unknown } | null;
  if (e && typeof e.info === "string") return e.info;
  if (e && typeof e.message === "string") return e.message;
  return String(err);
}
