/** What the page specs do on the app's API before a browser opens: wait for a transaction, give an issuer collateral. */
import { http, pollUntil, postJson } from "../../../fixtures/mesh/helpers";
import type { Wallet } from "../../../shared/wallet";

/** Polls `GET /transaction/confirm/{txHash}` of the app at `base` until it answers 200. */
export const confirmedOn = (base: string, txHash: string): Promise<true> =>
  pollUntil(
    async () => ((await http(`${base}/api/v1/transaction/confirm/${txHash}`)).status === 200 ? true : undefined),
    `confirm ${txHash}`,
    60_000,
  );

/** Gives `wallet` its collateral UTxO through the API and waits for it (the published client never prepares one). */
export async function prepareCollateral(base: string, wallet: Wallet): Promise<void> {
  const prepared = (await postJson(`${base}/api/v1/transaction/prepare-collateral`, { senderAddress: wallet.address })).json as {
    unsignedTransaction: string;
  };
  const submitted = await postJson(`${base}/api/v1/transaction/submit`, {
    transaction: prepared.unsignedTransaction,
    witnessSet: wallet.signTx(prepared.unsignedTransaction),
  });
  await confirmedOn(base, (submitted.json as { transactionHash: string }).transactionHash);
}
