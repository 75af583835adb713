/**
 * The faucet as a route sees it: switched off (never on mainnet), without a wallet on a real network without
 * FAUCET_MNEMONIC, or a dispenser opened on first use (so loading the service touches no key file).
 */
import type { AppConfig } from "../config/config";
import { DomainError } from "../domain/errors";
import type { InflightRegistry } from "../inflight";
import type { Store } from "../store";
import type { SentTransaction } from "../submission/own-transaction";
import { FaucetDispenser, type FaucetChain } from "./faucet-dispenser";
import { faucetWallet } from "./faucet-wallet";

type FaucetAccessConfig = Pick<AppConfig, "faucet" | "dataDir" | "ogmiosUrl" | "network">;

export class FaucetAccess {
  private opened: Promise<FaucetDispenser | null> | undefined;

  constructor(
    private readonly config: FaucetAccessConfig,
    private readonly resources: {
      store(): Promise<Store>;
      chain(): Promise<FaucetChain>;
      inflight(): Promise<InflightRegistry>;
      /** told each payment once submitted */
      announce?: (sent: SentTransaction) => void;
    },
  ) {}

  /** @throws DomainError FAUCET_DISABLED, FAUCET_NOT_CONFIGURED */
  async dispenser(): Promise<FaucetDispenser> {
    if (!this.config.faucet.enabled) {
      throw new DomainError(
        "FAUCET_DISABLED",
        this.config.network === "mainnet"
          ? "There is no faucet on mainnet."
          : "The faucet is disabled on this instance (FAUCET_ENABLED=false).",
      );
    }
    const dispenser = await (this.opened ??= this.open());
    if (dispenser === null) throw new DomainError("FAUCET_NOT_CONFIGURED", "The faucet has no wallet: set FAUCET_MNEMONIC.");
    return dispenser;
  }

  private async open(): Promise<FaucetDispenser | null> {
    const wallet = faucetWallet(this.config);
    if (wallet === null) return null;
    return FaucetDispenser.open(await this.resources.store(), {
      wallet,
      chain: () => this.resources.chain(),
      inflight: () => this.resources.inflight(),
      utxoCount: this.config.faucet.utxoCount,
      utxoLovelace: BigInt(this.config.faucet.utxoLovelace),
      cooldownMs: this.config.faucet.cooldownMs,
      claimsPerIpPerDay: this.config.faucet.claimsPerIpPerDay,
      dailyBudgetLovelace: BigInt(this.config.faucet.dailyBudgetLovelace),
      ...(this.resources.announce ? { announce: this.resources.announce } : {}),
    });
  }
}
