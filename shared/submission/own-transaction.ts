/**
 * A transaction the service pays and signs with a wallet of its own (a calendar round, a faucet payment, a step of
 * the first start's deployment): signed in full, submitted to the chain, and recorded in flight like any submission
 * (docs/decisions.md#in-flight-tracking), so builds chain on its pending outputs and no replica spends its inputs
 * again while it waits for a block; and announced like any submission (`transaction.submitted`, docs/events.md), so
 * the events service follows it to its confirmations.
 */
import { decodeTxSpend } from "../csl";
import type { Wallet } from "../wallet";
import { inFlightExpiresAt } from "./in-flight-expiry";
import type { InflightRecorder } from "./submit-transaction";

export interface OwnTransactionPorts {
  /** submits signed CBOR hex; rejects with the chain's error */
  submit(signedCborHex: string): Promise<unknown>;
  /** the in-flight registry the builders and the submitter share */
  inflight: InflightRecorder;
  /** Unix ms of a slot, for the transaction's validity bound; without it the record lives the registry's longest */
  slotToTime?: (slot: number) => number;
  now(): number;
  /** told each transaction once it is submitted and recorded (the `transaction.submitted` event); must not throw */
  announce?: (sent: SentTransaction) => void;
}

export interface SentTransaction {
  txId: string;
  /** Unix ms its inputs stay locked until, at most */
  inFlightUntil: number;
}

/**
 * Signs `unsignedCborHex` with `wallet`, submits it, records it in flight.
 * @throws whatever `ports.submit` rejects with (nothing is recorded then); CslError INVALID_CBOR for bytes that
 *   are no transaction
 */
export async function sendOwnTransaction(
  wallet: Pick<Wallet, "signTxFull">,
  unsignedCborHex: string,
  ports: OwnTransactionPorts,
): Promise<SentTransaction> {
  const signedCborHex = wallet.signTxFull(unsignedCborHex);
  const { id: txId, ttlSlot } = decodeTxSpend(signedCborHex);
  await ports.submit(signedCborHex);
  const now = ports.now();
  const slotToTime = ports.slotToTime;
  const inFlightUntil =
    slotToTime !== undefined && ttlSlot !== undefined
      ? inFlightExpiresAt(Number(ttlSlot), slotToTime, now)
      : inFlightExpiresAt(null, () => now, now); // no bound, or no clock to read it with: the registry's cap
  await ports.inflight.recordSubmitted({ txId, cborHex: signedCborHex, expiresAt: inFlightUntil });
  ports.announce?.({ txId, inFlightUntil });
  return { txId, inFlightUntil };
}
