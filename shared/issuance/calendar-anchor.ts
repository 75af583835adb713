/**
 * How the aggregated calendar (shared/merkle/calendar.ts) anchors the transparency log's checkpoint: the `default`
 * build of one certificate paid by the service wallet, which signs and sends it as its own transaction (submitted,
 * recorded in flight, announced by `announce`). A service wallet without a dedicated collateral UTxO gets one made first (the round then fails
 * and the next round anchors).
 */
import { DataHash } from "../domain/hex";
import { TLOG_CHECKPOINT_SCHEME } from "../transparency-log/log-entries";
import type { AnchorableCheckpoint, CalendarAnchorer } from "../merkle/calendar-types";
import { sendOwnTransaction, type OwnTransactionPorts, type SentTransaction } from "../submission/own-transaction";
import type { Wallet } from "../wallet";
import { isBuildRefusal } from "./build-outcome";
import { buildCertificateTransaction } from "./certificate-issuance";
import type { IssuanceEnv } from "./issuance-env";
import { buildPrepareCollateral } from "./prepare-collateral";

/** The certificate of a transparency-log checkpoint: its root, with the log's origin and the tree's size. */
function checkpointCertificate(checkpoint: AnchorableCheckpoint) {
  return {
    hash: DataHash(checkpoint.root),
    algorithm: TLOG_CHECKPOINT_SCHEME,
    metadata: JSON.stringify({ calendar: true, tlog: { origin: checkpoint.origin, size: checkpoint.size } }),
  };
}

/**
 * `walletOf` is asked on the first round only: a service that never anchors never reads the keys. `announce` is told
 * each transaction sent (the round's, a collateral split).
 */
export function serviceWalletAnchorer(
  env: IssuanceEnv,
  walletOf: () => Wallet,
  announce?: (sent: SentTransaction) => void,
): CalendarAnchorer {
  const ports: OwnTransactionPorts = {
    submit: (signed) => env.chain.submit(signed),
    inflight: env.registry,
    slotToTime: (slot) => env.slots.timeOfSlot(slot),
    now: () => env.now(),
    ...(announce ? { announce } : {}),
  };
  return {
    async build({ checkpoint }) {
      const wallet = walletOf();
      try {
        const built = await buildCertificateTransaction(env, {
          type: "default",
          address: wallet.address,
          certificates: [checkpointCertificate(checkpoint)],
        });
        return { cborHex: built.cborHex, txId: built.txId, expiresAtMs: built.expiresAtMs };
      } catch (err) {
        if (isBuildRefusal(err) && err.type === "COLLATERAL_REQUIRED") {
          const split = await buildPrepareCollateral(env, wallet.address);
          await sendOwnTransaction(wallet, split.cborHex, ports);
          throw new Error("The service wallet had no collateral UTxO; one is being made, the next round anchors.");
        }
        throw err;
      }
    },
    async submit(cborHex) {
      await sendOwnTransaction(walletOf(), cborHex, ports);
    },
  };
}
