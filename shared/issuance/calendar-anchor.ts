/**
 * How the aggregated calendar (shared/merkle/calendar.ts) anchors a round's root: the `default` build of one
 * batch certificate (as `POST /batch/build` makes it) paid and signed by the service wallet, submitted to the chain
 * and recorded in flight like any submission. A service wallet without a dedicated collateral UTxO gets one made
 * first (the round then fails and the next round anchors).
 */
import { decodeTx } from "../csl";
import { MERKLE_SCHEME } from "../merkle/merkle-tree";
import type { CalendarAnchorer } from "../merkle/calendar";
import type { BuiltTree } from "../merkle/tree-store";
import { inFlightExpiresAt } from "../submission/in-flight-expiry";
import type { Wallet } from "../wallet";
import { isBuildRefusal } from "./build-outcome";
import { buildCertificateTransaction } from "./certificate-issuance";
import type { IssuanceEnv } from "./issuance-env";
import { buildPrepareCollateral } from "./prepare-collateral";

/** The certificate metadata of a calendar round: the tree, and that the calendar anchored it. */
export function calendarMetadata(tree: Pick<BuiltTree, "treeId" | "leafCount">): string {
  return JSON.stringify({ calendar: true, merkle: { treeId: tree.treeId, leafCount: tree.leafCount } });
}

/** `walletOf` is asked on the first round only: a service that never anchors never reads the keys. */
export function serviceWalletAnchorer(env: IssuanceEnv, walletOf: () => Wallet): CalendarAnchorer {
  const send = async (signed: string, txId: string): Promise<void> => {
    await env.chain.submit(signed);
    const ttl = decodeTx(signed).ttlSlot;
    const expiresAt = inFlightExpiresAt(ttl === undefined ? null : Number(ttl), (s) => env.slots.timeOfSlot(s), env.now());
    await env.registry.recordSubmitted({ txId, cborHex: signed, expiresAt });
  };
  return {
    async build(tree) {
      const wallet = walletOf();
      try {
        const built = await buildCertificateTransaction(env, {
          type: "default",
          address: wallet.address,
          certificates: [{ hash: tree.root.toString("hex"), algorithm: MERKLE_SCHEME, metadata: calendarMetadata(tree) }],
        });
        const signed = wallet.signTxFull(built.cborHex);
        return { signedCborHex: signed, txId: built.txId, expiresAtMs: built.expiresAtMs };
      } catch (err) {
        if (isBuildRefusal(err) && err.type === "COLLATERAL_REQUIRED") {
          const split = await buildPrepareCollateral(env, wallet.address);
          await send(wallet.signTxFull(split.cborHex), split.txId);
          throw new Error("The service wallet had no collateral UTxO; one is being made, the next round anchors.");
        }
        throw err;
      }
    },
    submit: send,
  };
}
