/**
 * Pays test funds (docs/decisions.md#faucet): FAUCET_UTXO_COUNT outputs of FAUCET_UTXO_AMOUNT_LOVELACE to the claimer,
 * from the faucet wallet, signed and submitted by the service; at most one claim per payment credential per
 * cooldown, at most FAUCET_CLAIMS_PER_IP_PER_DAY claims per client IP (payment credentials are free to make), and
 * at most FAUCET_DAILY_BUDGET_LOVELACE per UTC day in total — all recorded in the store, so they hold across
 * restarts and replicas. Claims are serialised in this process, so two
 * claims never pick the same UTxO; its transactions are tracked in flight like every other (shared/inflight), so
 * consecutive claims chain on pending change, in every replica.
 */
import type { ProtocolParameters } from "@cardano-ogmios/schema";
import { buildPayment } from "../csl/build-payment";
import type { OgmiosUtxo } from "../csl/utxo";
import { DomainError } from "../domain/errors";
import type { Collection, Store, StoredDocument } from "../store";
import type { Wallet } from "../wallet";
import type { InflightRegistry } from "../inflight";
import { sendOwnTransaction, type SentTransaction } from "../submission/own-transaction";

export interface FaucetChain {
  protocolParameters(): Promise<ProtocolParameters>;
  utxosByAddresses(addresses: readonly string[]): Promise<OgmiosUtxo[]>;
  submit(txCborHex: string): Promise<string>;
}

export interface FaucetOptions {
  wallet: Wallet;
  chain: () => Promise<FaucetChain>;
  /** the in-flight registry the builders and the submitter share */
  inflight: () => Promise<InflightRegistry>;
  utxoCount: number;
  utxoLovelace: bigint;
  cooldownMs: number;
  claimsPerIpPerDay: number;
  dailyBudgetLovelace: bigint;
  /** told each payment once submitted (its `transaction.submitted` event, docs/events.md); must not throw */
  announce?: (sent: SentTransaction) => void;
}

type ClaimDoc = StoredDocument & { lastClaimAt: number; txHash: string };
/** Per UTC day: `ip:<ip>:<day>` counts claims of one client, `budget:<day>` the lovelace paid. */
type CounterDoc = StoredDocument & { count: number };

const DAY_MS = 86_400_000;

/** @throws DomainError FAUCET_SUBMIT_FAILED, with the chain's reason */
function refusedPayment(err: unknown): never {
  throw new DomainError("FAUCET_SUBMIT_FAILED", `The faucet transaction was refused: ${err instanceof Error ? err.message : String(err)}`);
}
const dayOf = (now: number): string => new Date(Math.floor(now / DAY_MS) * DAY_MS).toISOString().slice(0, 10);

export class FaucetDispenser {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly claims: Collection<ClaimDoc>,
    private readonly counters: Collection<CounterDoc>,
    private readonly opts: FaucetOptions,
  ) {}

  static open(store: Store, opts: FaucetOptions): FaucetDispenser {
    return new FaucetDispenser(store.collection<ClaimDoc>("faucet_claims"), store.collection<CounterDoc>("faucet_counters"), opts);
  }

  private get claimLovelace(): bigint {
    return this.opts.utxoLovelace * BigInt(this.opts.utxoCount);
  }

  /**
   * Counts one claim against the client's daily allowance and the day's budget, or refuses (and counts nothing).
   * Counting first and taking back an overshoot keeps the limits true across replicas without a lock.
   * @throws DomainError FAUCET_IP_LIMIT, FAUCET_DAILY_BUDGET
   */
  private async reserve(clientIp: string, now: number): Promise<() => Promise<void>> {
    const day = dayOf(now);
    const retryAfterSeconds = Math.ceil((Math.floor(now / DAY_MS + 1) * DAY_MS - now) / 1000);
    const ipKey = `ip:${clientIp}:${day}`;
    const budgetKey = `budget:${day}`;
    const unit = Number(this.claimLovelace / 1000n); // the budget counts in thousands of lovelace (exact for whole ADA amounts)
    const add = async (key: string, n: number) => {
      await this.counters.updateOne({ _id: key }, { $inc: { count: n } }, { upsert: true });
      return (await this.counters.findOne({ _id: key }))?.count ?? 0;
    };
    if ((await add(ipKey, 1)) > this.opts.claimsPerIpPerDay) {
      await add(ipKey, -1);
      throw new DomainError(
        "FAUCET_IP_LIMIT",
        `This client made ${this.opts.claimsPerIpPerDay} faucet claims today; try again tomorrow (UTC).`,
        {
          retryAfterSeconds,
        },
      );
    }
    if (BigInt(await add(budgetKey, unit)) * 1000n > this.opts.dailyBudgetLovelace) {
      await add(budgetKey, -unit);
      await add(ipKey, -1);
      throw new DomainError("FAUCET_DAILY_BUDGET", "The faucet has paid out its budget for today; try again tomorrow (UTC).", {
        retryAfterSeconds,
      });
    }
    return async () => {
      await add(budgetKey, -unit);
      await add(ipKey, -1);
    };
  }

  get address(): string {
    return this.opts.wallet.address;
  }

  /** Refuses while the credential's cooldown runs. @throws DomainError FAUCET_COOLDOWN (with `retryAfterSeconds`) */
  async refuseDuringCooldown(credential: string, now: number): Promise<void> {
    const last = await this.claims.findOne({ _id: credential });
    const left = last ? Math.max(0, last.lastClaimAt + this.opts.cooldownMs - now) : 0;
    if (left > 0) {
      const retryAfterSeconds = Math.ceil(left / 1000);
      throw new DomainError("FAUCET_COOLDOWN", `This wallet was funded recently; try again in ${retryAfterSeconds} s.`, {
        retryAfterSeconds,
      });
    }
  }

  /** @throws DomainError FAUCET_COOLDOWN, FAUCET_IP_LIMIT, FAUCET_DAILY_BUDGET, FAUCET_EMPTY, FAUCET_SUBMIT_FAILED */
  dispense(address: string, credential: string, clientIp: string, now: number): Promise<{ txHash: string; lovelace: bigint }> {
    const run = async () => {
      // Checked again inside the queue: two claims of one credential may both have passed the caller's check.
      await this.refuseDuringCooldown(credential, now);
      const release = await this.reserve(clientIp, now);
      try {
        return await this.pay(address, credential, now);
      } catch (err) {
        await release();
        throw err;
      }
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async pay(address: string, credential: string, now: number): Promise<{ txHash: string; lovelace: bigint }> {
    const chain = await this.opts.chain();
    const [params, own, inflight] = await Promise.all([
      chain.protocolParameters(),
      chain.utxosByAddresses([this.address]),
      this.opts.inflight(),
    ]);
    const spendable = await inflight.spendable(this.address, own, this.opts.wallet.paymentKeyHash);
    const outputs = Array.from({ length: this.opts.utxoCount }, () => ({ address, lovelace: this.opts.utxoLovelace }));
    let built: { cborHex: string };
    try {
      built = buildPayment({ protocolParameters: params, utxos: spendable, changeAddress: this.address, outputs });
    } catch (err) {
      if ((err as { type?: unknown }).type === "INSUFFICIENT_FUNDS")
        throw new DomainError("FAUCET_EMPTY", "The faucet has not enough funds right now.");
      throw err;
    }
    const { txId } = await sendOwnTransaction(this.opts.wallet, built.cborHex, {
      submit: (signed) => chain.submit(signed).catch(refusedPayment),
      inflight,
      now: () => now,
      ...(this.opts.announce ? { announce: this.opts.announce } : {}),
    });
    await this.claims.updateOne({ _id: credential }, { $set: { lastClaimAt: now, txHash: txId } }, { upsert: true });
    return { txHash: txId, lovelace: this.claimLovelace };
  }
}
